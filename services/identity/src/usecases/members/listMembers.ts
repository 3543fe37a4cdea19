import type { IdentityDeps } from "../../deps.js";
import { memberView, type MemberView } from "./memberView.js";

export interface ListMembersQuery {
  organizationId: string;
}

export async function listMembers(deps: IdentityDeps, { organizationId }: ListMembersQuery): Promise<MemberView[]> {
  const memberships = await deps.members.membersOf(organizationId);
  const out: MemberView[] = [];
  for (const m of memberships) {
    const user = await deps.accounts.byId(m.user_id);
    if (user) out.push(memberView(m, user));
  }
  return out;
}
