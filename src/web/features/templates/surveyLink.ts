import { appConfig } from '../../config';

/**
 * The address students open to take a template's survey: the configured public URL of the
 * deployment (PUBLIC_URL) when there is one, else the address this page was served from.
 */
export function surveyLinkUrl(
  hashLink: string,
  base: string = appConfig.publicUrl ?? window.location.origin,
) {
  return `${base.replace(/\/+$/, '')}/survey/link/${encodeURIComponent(hashLink)}`;
}

/**
 * Puts text on the clipboard. The text may still be on its way (a promise): browsers that
 * accept a pending clipboard item get it at once, inside the click that asked for it, which
 * Safari insists on. Where the async Clipboard API is missing (pages served over plain http on
 * an intranet), a hidden text area and the copy command do the job.
 */
export async function copyToClipboard(text: string | Promise<string>): Promise<void> {
  if (typeof text !== 'string' && typeof ClipboardItem !== 'undefined' && navigator.clipboard?.write) {
    const blob = text.then((value) => new Blob([value], { type: 'text/plain' }));
    await navigator.clipboard.write([new ClipboardItem({ 'text/plain': blob })]);
    return;
  }
  const value = await text;
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(value);
    return;
  }
  const area = document.createElement('textarea');
  area.value = value;
  area.setAttribute('readonly', '');
  area.className = 'visually-hidden';
  document.body.append(area);
  try {
    area.select();
    if (!document.execCommand('copy')) throw new Error('The copy command was refused');
  } finally {
    area.remove();
  }
}
