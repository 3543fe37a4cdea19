// A worker for the FairPool tests: holds its thread busy for `ms` (as a long RE2 scan does,
// without yielding), then answers with its label.
export default function work({ label, ms }) {
  const end = Date.now() + ms;
  while (Date.now() < end);
  return label;
}
