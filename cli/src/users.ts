import type { Client, User } from '@pingmon/sdk';

/** The user a command names: by id (usr_…) or by e-mail address, among the account's users. */
export async function findUser(client: Client, ref: string): Promise<User> {
  const { users } = await client.listUsers();
  const wanted = ref.trim().toLowerCase();
  const user = users.find((u) => u.userId === ref || u.email === wanted);
  if (!user) throw new Error(`no user ${ref} in this account: \`pingmon users list\` shows them`);
  return user;
}
