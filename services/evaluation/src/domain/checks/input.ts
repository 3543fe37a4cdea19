// What a structural check reads: the match, its secret, and the file around it (checks.ts).

export interface CheckInput {
  /**
   * The rule's capture group (`redact_group`: the secret of a secret rule, or what a check needs
   * to read, such as a receiver's name), or the whole match when the rule has none.
   */
  secret: string;
  /** The whole match. */
  match: string;
  /** The file, its path, and the match's byte offsets in it. */
  content: Buffer;
  path: string;
  start: number;
  end: number;
}

export type Check = (input: CheckInput) => boolean;
