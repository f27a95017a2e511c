/** An absolute link for a mail: the path on the site the mail's reader opens (config `mail.linkBase`). */
export function mailLink(linkBase: string, path: string): string {
  return new URL(path, linkBase).href;
}
