/** All of stdin as text, for input piped in (`--password-stdin`); an error past `maxBytes`: no secret is that long. */
export async function readStdin(maxBytes = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new Error(`stdin holds more than ${maxBytes} bytes: expected one line`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
