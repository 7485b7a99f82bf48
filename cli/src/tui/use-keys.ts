import { useEffect, useRef } from 'react';
import { useStdin } from 'ink';
import type { KeyPress } from './key-reader.js';
import { readKeys } from './key-reader.js';

/**
 * Calls `onKeys` with every key of every chunk the terminal sends, in order: what ink's useInput would do, without
 * dropping all but the first key of a chunk. ink reads stdin in raw mode once a component asks for it; each chunk
 * it reads is also a 'data' event of the stream (Readable#read emits it), which is where this listens.
 */
export function useKeys(onKeys: (keys: KeyPress[]) => void): void {
  const { stdin, setRawMode } = useStdin();
  const handler = useRef(onKeys);
  handler.current = onKeys;
  useEffect(() => {
    // Raw mode first: ink's 'readable' listener then keeps the stream paused, and ours only hears what ink reads.
    setRawMode(true);
    let pasting = false;
    const onData = (data: Buffer | string) => {
      const read = readKeys(String(data), pasting);
      pasting = read.pasting;
      if (read.keys.length > 0) handler.current(read.keys);
    };
    stdin.on('data', onData);
    return () => {
      stdin.off('data', onData);
      setRawMode(false);
    };
  }, [stdin, setRawMode]);
}
