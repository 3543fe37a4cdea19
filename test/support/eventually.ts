// Retries an assertion until it passes, then returns; past the deadline its last failure is
// thrown. Bus delivery, webhook deliveries and queued evaluations are asynchronous by design.
export async function eventually(
  assertion: () => Promise<void> | void,
  timeoutMs = 10_000,
  intervalMs = 25,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}
