import { Box as InkBox, Text as InkText } from 'ink';
import type { PropsWithChildren } from 'react';
import type { BoxProps, TextProps } from 'ink';

/**
 * ink's Box and Text, without colour when NO_COLOR is set (no-color.org: present and not empty). Colour only ever
 * repeats what the words say (✗ failed, ⚠ silent); bold, dim and the selected row's inverse stay.
 */
const colourless = Boolean(process.env.NO_COLOR);

export function Text(props: TextProps) {
  return colourless ? <InkText {...props} color={undefined} backgroundColor={undefined} /> : <InkText {...props} />;
}

export function Box(props: PropsWithChildren<BoxProps>) {
  return colourless ? <InkBox {...props} borderColor={undefined} /> : <InkBox {...props} />;
}
