import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';

/** Takes a copy of a chunk of the job's stdout or stderr, before its buffer is reused. */
export type Copy = (chunk: Buffer) => void;

export interface Fifo {
  read: number;
  write: number;
}

/** One read of a job's output at most: the size of a pipe's buffer on Linux. */
const READ_BYTES = 64 * 1024;

/**
 * Two FIFOs for the job's stdout and stderr, read and write ends open, or undefined where none can be made
 * (no `mkfifo`): the job then gets ordinary pipes. Node allocates a new 64 KiB buffer for every read of a pipe,
 * where a FIFO is read into one reused buffer: a job printing gigabytes leaves no garbage and the copy runs
 * faster (`npm run bench`, "through cat"). Their names are removed at once; the open ends keep them.
 */
export function openFifos(): [Fifo, Fifo] | undefined {
  const opened: number[] = [];
  let dir: string | undefined;
  try {
    dir = mkdtempSync(join(tmpdir(), 'pingmon-output-'));
    const paths = [join(dir, 'stdout'), join(dir, 'stderr')] as const;
    execFileSync('mkfifo', ['-m', '600', ...paths], { stdio: 'ignore' });
    const open = (path: string): Fifo => {
      // The read end first, without waiting for a writer; then the write end, which finds its reader.
      const read = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
      opened.push(read);
      const write = openSync(path, constants.O_WRONLY);
      opened.push(write);
      return { read, write };
    };
    return [open(paths[0]), open(paths[1])];
  } catch {
    for (const fd of opened) closeSync(fd);
    return undefined;
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

export function closeFifos(fifos: readonly Fifo[]): void {
  for (const fifo of fifos) {
    closeSync(fifo.read);
    closeSync(fifo.write);
  }
}

/**
 * Reads a FIFO into one buffer, reused while `to` writes each chunk at once (a file, a terminal, a pipe with
 * room). A chunk `to` keeps to write later stays its own until written, reading going on into another buffer;
 * when `to` is full, reading waits for its drain.
 */
export function readFifo(fd: number, to: Writable, copy: Copy | undefined): Socket {
  let buffer: Buffer = Buffer.allocUnsafe(READ_BYTES);
  const free: Buffer[] = [];
  // `onread` is in Node's socket options since 12.2, though @types/node lists it for connect() only.
  const socket: Socket = new Socket({
    fd,
    readable: true,
    writable: false,
    ...{
      onread: {
        buffer: () => buffer,
        callback: (bytes: number, read: Uint8Array) => {
          const chunk = Buffer.from(read.buffer, read.byteOffset, bytes);
          copy?.(chunk);
          const used = buffer;
          const more = to.write(chunk, () => {
            if (used !== buffer) free.push(used);
          });
          if (to.writableLength > 0) buffer = free.pop() ?? Buffer.allocUnsafe(READ_BYTES);
          if (more) return true;
          to.once('drain', () => socket.resume());
          return false;
        },
      },
    },
  });
  // A read that fails (it should not) ends the copy, as a reader that went away does; the job goes on.
  socket.on('error', () => socket.destroy());
  return socket;
}
