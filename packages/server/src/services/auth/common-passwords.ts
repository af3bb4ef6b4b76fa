/**
 * Passwords that appear at the top of public breach corpora, compared case-insensitively after
 * stripping a trailing run of digits and symbols ("Password123!" → "password"). A password whose
 * core is one of these is refused even when it meets the character rules (NIST SP 800-63B-4 §3.1.1.2).
 */
export const COMMON_PASSWORD_CORES: ReadonlySet<string> = new Set([
  'password', 'passw0rd', 'p@ssw0rd', 'p@ssword', 'pa$$word', 'welcome', 'welc0me', 'qwerty', 'qwertyuiop',
  'asdfgh', 'asdfghjkl', 'zxcvbnm', 'letmein', 'admin', 'administrator', 'changeme', 'iloveyou', 'monkey',
  'dragon', 'sunshine', 'princess', 'football', 'baseball', 'superman', 'batman', 'master', 'shadow',
  'michael', 'jennifer', 'trustno1', 'abc', 'abcd', 'abcdef', 'abcdefg', 'abcdefgh', 'abc123', 'test',
  'testing', 'login', 'secret', 'summer', 'winter', 'spring', 'autumn', 'hello', 'freedom', 'whatever',
  'starwars', 'pokemon', 'charlie', 'donald', 'computer', 'internet', 'samsung', 'google', 'apple',
  'microsoft', 'fleetdeck', 'rainmaker', 'espressif', 'default', 'guest', 'root', 'user', 'temp',
  'temporary', 'company', 'office', 'india', 'mumbai', 'delhi', 'qazwsx', 'q1w2e3r4', '1q2w3e4r',
  '1qaz2wsx', 'zaq12wsx', 'aa', 'aaa', 'aaaa', 'aaaaaa', 'aaaaaaaa', 'a1b2c3', 'access', 'flower',
  'hunter', 'killer', 'jordan', 'liverpool', 'chelsea', 'arsenal', 'soccer', 'hockey', 'ranger',
  'buster', 'thomas', 'robert', 'daniel', 'andrew', 'joshua', 'matthew', 'ashley', 'jessica', 'nicole',
  'passpass', 'mypassword', 'newpassword', 'yourpassword', 'password1', 'welcome1', 'letmein1',
  'admin1', 'adminadmin', 'qwerty1', 'qwe', 'qweasd', 'qweasdzxc', 'asdf', 'asdasd', 'zxcv', 'love',
  'lovely', 'babygirl', 'angel', 'cookie', 'cheese', 'pepper', 'ginger', 'orange', 'banana', 'purple',
  'silver', 'golden', 'diamond', 'matrix', 'ninja', 'mustang', 'ferrari', 'corvette', 'harley',
]);

/** Whether the password is, at heart, a well-known one. */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (/^(.)\1+$/.test(lower)) return true;
  if ('0123456789'.includes(lower) || 'abcdefghijklmnopqrstuvwxyz'.includes(lower)) return true;
  // Peel decorations off both ends one character at a time, so "Trustno11" still finds
  // "trustno1" and "11q2w3e4r" finds "1q2w3e4r".
  const leading = /^[\d\W_]*/u.exec(lower)?.[0].length ?? 0;
  if (leading === lower.length) return true;
  for (let start = 0; start <= leading; start++) {
    let rest = lower.slice(start);
    while (rest.length > 0) {
      if (COMMON_PASSWORD_CORES.has(rest)) return true;
      if (!/[\d\W_]$/u.test(rest)) break;
      rest = rest.slice(0, -1);
    }
  }
  return false;
}
