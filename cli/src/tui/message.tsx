import type { ReactNode } from 'react';
import { Box, Text } from './ink.js';

/** A sentence in place of a view's content: loading, empty, or what went wrong and what to do. */
export function Message({ children, color }: { children: ReactNode; color?: string }) {
  return (
    <Box paddingX={2} paddingY={1}>
      <Text color={color}>{children}</Text>
    </Box>
  );
}
