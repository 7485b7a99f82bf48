import t from 'tap';
import { isPublicAddress, nonPublicAddressIn, nonPublicHostOf } from '@pingmon/server/internal';

t.test(
  'isPublicAddress refuses every private, loopback, link-local, unique-local and unspecified address',
  async (t) => {
    const cases: Array<[string, boolean]> = [
      ['8.8.8.8', true],
      ['1.1.1.1', true],
      ['172.32.0.1', true],
      ['2606:4700:4700::1111', true],
      ['::ffff:8.8.8.8', true],
      ['0.0.0.0', false],
      ['127.0.0.1', false],
      ['127.255.255.254', false],
      ['10.1.2.3', false],
      ['172.16.0.1', false],
      ['172.31.255.255', false],
      ['192.168.1.1', false],
      ['169.254.169.254', false],
      ['100.64.0.1', false],
      ['224.0.0.1', false],
      ['255.255.255.255', false],
      ['::', false],
      ['::1', false],
      ['fe80::1', false],
      ['fe80::1%eth0', false],
      ['fc00::1', false],
      ['fd12:3456:789a::1', false],
      ['ff02::1', false],
      ['::ffff:127.0.0.1', false],
      ['::ffff:7f00:1', false],
      ['::ffff:10.0.0.1', false],
      ['::ffff:169.254.169.254', false],
      ['::127.0.0.1', false],
      ['not an address', false],
    ];
    for (const [address, expected] of cases) t.equal(isPublicAddress(address), expected, address);
  },
);

t.test('an IPv6 address that carries an IPv4 one is as public as the IPv4 address it carries', async (t) => {
  // [form, carrying a loopback or private IPv4, carrying 8.8.8.8 (or undecidable: refused whatever it carries)]
  const cases: Array<[string, string[], string, boolean]> = [
    ['IPv4-mapped', ['::ffff:127.0.0.1', '::ffff:10.0.0.1'], '::ffff:8.8.8.8', true],
    ['IPv4-translated', ['::ffff:0:127.0.0.1', '::ffff:0:169.254.169.254'], '::ffff:0:8.8.8.8', true],
    ['IPv4-compatible', ['::127.0.0.1', '::192.168.1.1'], '::8.8.8.8', true],
    ['NAT64 well-known prefix', ['64:ff9b::127.0.0.1', '64:ff9b::10.1.2.3'], '64:ff9b::8.8.8.8', true],
    // 64:ff9b:1::/48 is split as its network chooses (RFC 8215): where the IPv4 address sits cannot be told.
    ['NAT64 local-use prefix', ['64:ff9b:1::127.0.0.1', '64:ff9b:1:7f00:1::'], '64:ff9b:1:808:808::', false],
    ['6to4', ['2002:7f00:1::', '2002:a9fe:a9fe::1'], '2002:808:808::1', true],
    // Teredo: 2001:0:<server IPv4>:<flags>:<port>:<client IPv4 XOR ffff:ffff>. Servers 65.54.227.120, 10.0.0.1;
    // clients 127.0.0.1, 10.0.0.1, 8.8.8.8.
    [
      'Teredo',
      [
        '2001:0:4136:e378:8000:63bf:80ff:fffe',
        '2001:0:4136:e378:8000:63bf:f5ff:fffe',
        '2001:0:a00:1:8000:63bf:f7f7:f7f7',
      ],
      '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
      true,
    ],
  ];
  for (const [form, refused, carrying, expected] of cases) {
    for (const address of refused) t.equal(isPublicAddress(address), false, `${form}: ${address}`);
    t.equal(isPublicAddress(carrying), expected, `${form}: ${carrying}`);
  }
});

t.test('only global unicast addresses are public, special-purpose ranges in it excepted', async (t) => {
  const cases: Array<[string, boolean]> = [
    ['2a00:1450:4001:81a::200e', true],
    ['2001:4860:4860::8888', true],
    ['2001:db8::1', false],
    ['3fff::1', false],
    ['2001:2::1', false],
    ['2001:20::1', false],
    ['100::1', false],
    ['fec0::1', false],
    ['4000::1', false],
    ['5f00::1', false],
    ['::2', false],
    ['192.0.2.1', false],
    ['198.51.100.7', false],
    ['203.0.113.9', false],
    ['192.88.99.1', false],
    ['198.19.0.1', false],
    ['93.184.215.14', true],
  ];
  for (const [address, expected] of cases) t.equal(isPublicAddress(address), expected, address);
});

t.test('nonPublicHostOf names the host of a URL that plainly points at a non-public address', async (t) => {
  const cases: Array<[string, string | undefined]> = [
    ['https://hooks.slack.com/services/T/B/x', undefined],
    ['http://8.8.8.8/hook', undefined],
    ['https://[2606:4700:4700::1111]/hook', undefined],
    ['https://internal.example.com/hook', undefined],
    ['http://127.0.0.1:9/hook', '127.0.0.1'],
    ['http://0x7f.1/hook', '127.0.0.1'],
    ['http://2130706433/hook', '127.0.0.1'],
    ['http://0/hook', '0.0.0.0'],
    ['http://[::1]:8080/hook', '::1'],
    ['http://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1'],
    ['http://[fd00::1]/hook', 'fd00::1'],
    ['http://[::ffff:0:127.0.0.1]/', '::ffff:0:7f00:1'],
    ['http://[64:ff9b::127.0.0.1]/', '64:ff9b::7f00:1'],
    ['http://[2002:7f00:1::]/', '2002:7f00:1::'],
    ['http://[2002:808:808::1]/', undefined],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['http://10.0.0.5/hook', '10.0.0.5'],
    ['http://localhost:3000/hook', 'localhost'],
    ['http://LOCALHOST./hook', 'localhost.'],
    ['http://api.localhost/hook', 'api.localhost'],
    ['not a url', undefined],
  ];
  for (const [url, expected] of cases) {
    t.equal(nonPublicHostOf(url), expected, url);
    // When sending, only an address in the URL is checked up front: a name goes through the checked lookup.
    t.equal(nonPublicAddressIn(url), /localhost/i.test(url) ? undefined : expected, `${url} when sending`);
  }
});
