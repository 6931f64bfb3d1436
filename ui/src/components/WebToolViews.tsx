import { fetchedPage, imageResults } from "../core/toolViews";

/** web_fetch: the page's title as a link to its URL, whether it was cut, and the text. */
export function WebFetchBody({ resultText }: { resultText: string }) {
  const page = fetchedPage(resultText);
  if (page === null) {
    return (
      <section>
        <h3>Result</h3>
        <pre data-testid="tool-result">{resultText}</pre>
      </section>
    );
  }
  const text = resultText.slice(resultText.indexOf("\n\n") + 2);
  return (
    <>
      <section data-testid="web-page">
        <h3>Page</h3>
        <a href={page.url} target="_blank" rel="noreferrer noopener" data-testid="web-page-link" title={page.url}>
          {page.title ?? page.url}
        </a>
        {page.title !== null && <div className="muted small">{page.url}</div>}
        {page.cut && <div className="muted small">Long page: the text was cut.</div>}
      </section>
      <details className="tool-output">
        <summary>Text</summary>
        <pre data-testid="tool-result">{text}</pre>
      </details>
    </>
  );
}

/**
 * image_search: each image's title linking to the image, with its source page. Thumbnails are
 * not loaded: a result list must not make the app fetch from hosts the user never chose.
 * Renders the plain result when no image could be read.
 */
export function ImageResultsBody({ resultText }: { resultText: string }) {
  const images = imageResults(resultText);
  if (images.length === 0) {
    return (
      <section>
        <h3>Result</h3>
        <pre data-testid="tool-result">{resultText}</pre>
      </section>
    );
  }
  return (
    <section>
      <h3>Images</h3>
      <ul className="tool-links" data-testid="tool-images">
        {images.map((img) => (
          <li key={img.imageUrl}>
            <a href={img.imageUrl} target="_blank" rel="noreferrer noopener" data-testid="tool-link" title={img.imageUrl}>
              {img.title}
            </a>
            {img.size !== null && <span className="muted small"> · {img.size}</span>}
            {img.sourceUrl !== null && (
              <>
                {" "}
                <a className="muted small" href={img.sourceUrl} target="_blank" rel="noreferrer noopener" title={img.sourceUrl}>
                  (source page)
                </a>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
