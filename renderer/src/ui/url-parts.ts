// Where a URL may wrap on screen. A long address in a narrow card otherwise breaks wherever the line ends, even in
// the middle of a port or a number ('…:41' / '235/'); offering breaks after '/' and ':' and before '.', '?', '#',
// '&', '=' and '-' keeps numbers and words whole unless a single part is wider than the box.

/** The URL cut where a line may end; joined again they give the URL back unchanged. */
export function urlParts(url: string): string[] {
  return url.split(/(?<=[/:])(?=[^/])|(?=[.?#&=-])/).filter(Boolean);
}
