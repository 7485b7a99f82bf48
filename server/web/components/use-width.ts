import { useCallback, useRef, useState } from 'react';

/**
 * The width in CSS pixels of the element given the returned ref, kept up to date as the page resizes: a chart
 * drawn at its real width keeps its text at the page's size (a scaled viewBox would shrink it on a phone).
 */
export function useWidth(initial: number): [(element: HTMLElement | null) => void, number] {
  const [width, setWidth] = useState(initial);
  const observer = useRef<ResizeObserver>();
  const ref = useCallback((element: HTMLElement | null) => {
    observer.current?.disconnect();
    if (!element) return;
    setWidth(Math.round(element.clientWidth) || initial);
    observer.current = new ResizeObserver(([entry]) => entry && setWidth(Math.round(entry.contentRect.width)));
    observer.current.observe(element);
  }, []);
  return [ref, width];
}
