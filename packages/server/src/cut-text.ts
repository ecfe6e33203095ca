const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * `text` with its middle left out when it is longer than `max` characters: about `head` of them
 * kept from the start, the rest of `max` from the end, and `marker(removed)` between. A surrogate
 * pair is never split (grpc-js's encodeURI of a status's details throws on half of one).
 */
export function cutMiddle(
  text: string,
  max: number,
  head: number,
  marker: (removed: number) => string,
): string {
  if (text.length <= max) return text;
  let start = head;
  let end = text.length - (max - head);
  if (isHigh(text.charCodeAt(start - 1))) start -= 1;
  if (isLow(text.charCodeAt(end))) end += 1;
  return `${text.slice(0, start)}${marker(end - start)}${text.slice(end)}`;
}
