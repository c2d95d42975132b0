/** Every item of a paged Kubernetes list (`limit` / `continue`), page after page. */
export async function allPages<T>(fetchPage: (continueToken: string | undefined) => Promise<{ items: T[]; metadata?: { _continue?: string } }>): Promise<T[]> {
  const items: T[] = [];
  let continueToken: string | undefined;
  do {
    const page = await fetchPage(continueToken);
    items.push(...page.items);
    continueToken = page.metadata?._continue || undefined;
  } while (continueToken);
  return items;
}
