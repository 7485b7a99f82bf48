import t from 'tap';
import { isPublicAddress, nonPublicAddressIn, nonPublicHostOf } from '../../../../server/dist/domain/addresses.js';

t.test('isPublicAddress refuses private, loopback, link-local, unique-local and unspecified addresses', async (t) => {
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
