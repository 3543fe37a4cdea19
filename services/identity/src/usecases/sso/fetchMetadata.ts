/** Fetches an IdP's SAML metadata document (10 s, no redirects), or a problem to report. */
export async function fetchMetadata(url: string): Promise<string | { problem: string }> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000), redirect: "error" });
    if (!res.ok) return { problem: `answered HTTP ${res.status}` };
    return await res.text();
  } catch {
    return { problem: "could not be fetched" };
  }
}
