import { Fragment } from 'react';
import { urlParts } from './url-parts';

/** A URL as text with line-break opportunities between its parts (<wbr>), so it never wraps inside a number. */
export function UrlText({ url }: { url: string }) {
  return (
    <>
      {urlParts(url).map((part, index) => (
        // The parts of one URL never move: the index is their identity.
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
