// How wide text is in 11 px Verdana, the badges' font, in pixels: what shields.io measures with, so that a badge's
// boxes fit its words. Printable ASCII from the font's advance widths; anything else as a wide letter.

const ASCII_WIDTHS =
  // space ! " # $ % & ' ( ) * + , - . /
  [3.87, 4.33, 5.05, 9.0, 7.0, 11.84, 7.99, 2.95, 4.99, 4.99, 7.0, 9.0, 4.0, 4.99, 4.0, 4.99]
    // 0-9
    .concat(Array<number>(10).fill(7.0))
    // : ; < = > ? @
    .concat([4.99, 4.99, 9.0, 9.0, 9.0, 6.0, 11.0])
    // A-Z
    .concat([7.52, 7.54, 7.68, 8.48, 6.96, 6.32, 8.53, 8.27, 4.63, 5.0, 7.62, 6.12, 9.27])
    .concat([8.23, 8.66, 6.63, 8.66, 7.65, 7.52, 6.78, 8.05, 7.52, 10.88, 7.54, 6.77, 7.54])
    // [ \ ] ^ _ `
    .concat([4.99, 4.99, 4.99, 9.0, 7.0, 7.0])
    // a-z
    .concat([6.61, 6.85, 5.73, 6.85, 6.55, 3.87, 6.85, 6.96, 3.02, 3.79, 6.51, 3.02, 10.71])
    .concat([6.96, 6.68, 6.85, 6.85, 4.69, 5.73, 4.33, 6.96, 6.51, 8.98, 6.51, 6.51, 5.78])
    // { | } ~
    .concat([6.98, 4.99, 6.98, 9.0]);

/** The width of a character outside printable ASCII: a wide letter's, so that the box errs on the roomy side. */
const OTHER_WIDTH = 9.0;
/** East Asian wide characters take about a square each. */
const WIDE_WIDTH = 11.0;

export function textWidth(text: string): number {
  let width = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0x20 && code < 0x7f) width += ASCII_WIDTHS[code - 0x20]!;
    else width += code >= 0x1100 ? WIDE_WIDTH : OTHER_WIDTH;
  }
  return width;
}
