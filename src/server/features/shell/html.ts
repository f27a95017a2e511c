const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] as string);
}

/** A small, self-contained page for the few answers that are HTML rather than JSON. */
export function simplePage(options: { title: string; heading: string; body: string; brand: string }): string {
  const { title, heading, body, brand } = options;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${escapeHtml(title)} - ${escapeHtml(brand)} Health</title>
<link rel="stylesheet" href="/api/contact/page.css" />
</head>
<body>
<main>
<h1>${escapeHtml(heading)}</h1>
<p>${escapeHtml(body)}</p>
<p><a href="/">Back to ${escapeHtml(brand)} Health</a></p>
</main>
</body>
</html>`;
}
