/**
 * The most common passwords of at least 8 characters from public breach corpora. Rejected at
 * registration because attackers try them first (NIST SP 800-63B, 5.1.1.2).
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '12345678', '123456789', '1234567890', '12345678910', '11111111', '00000000', '88888888', '87654321',
  '11223344', '12341234', '12121212', '123123123', '1q2w3e4r', '1q2w3e4r5t', '1qaz2wsx', 'zaq12wsx',
  'qwertyui', 'qwertyuiop', 'qwerty123', 'qwerty12', 'asdfghjkl', 'asdfasdf', 'zxcvbnm1', 'password',
  'password1', 'password12', 'password123', 'passw0rd', 'p@ssw0rd', 'p@ssword', 'iloveyou', 'iloveyou1',
  'sunshine', 'princess', 'football', 'baseball', 'basketball', 'superman', 'starwars', 'whatever',
  'trustno1', 'letmein1', 'welcome1', 'welcome123', 'admin123', 'administrator', 'abc12345', 'abcd1234',
  'aa123456', 'qazwsx123', 'computer', 'internet', 'michelle', 'jennifer', 'jordan23', 'liverpool',
  'chocolate', 'butterfly', 'changeme', 'monkey123', 'dragon123', 'master123', 'football1', 'mustang1',
  'shadow123', 'sunshine1', 'princess1', 'charlie1', 'blink182', 'q1w2e3r4', 'q1w2e3r4t5', '987654321',
  'a1b2c3d4', 'student1', 'student123', 'university', 'college1', 'wellness', 'wellness1', 'letmein123',
  'password!', 'passwort', 'azertyuiop', 'qwertzuiop', 'babygirl1', 'lovelove', 'loveyou1', 'nicole1',
  'hello123', 'freedom1', 'whatever1', 'michael1', 'spiderman', 'pokemon1', 'minecraft', 'fuckyou1',
]);
