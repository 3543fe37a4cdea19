import { builtinSettings, CRYPTO_FRAMEWORKS, docs, paths, SECURITY_CATEGORY, type BuiltinPolicy } from "./types.js";

// A password-ish identifier later on the same line.
const PASSWORD = String.raw`(?i:passw(?:or)?d|pwd|passphrase|\bpass\b)`;
// Weak cipher names as OpenSSL spells them: DES/3DES, RC2, RC4, Blowfish, CAST, IDEA, or any ECB mode.
const WEAK_OPENSSL_CIPHER = String.raw`(?i:(?:des|rc2|rc4|bf|blowfish|cast5?|idea)(?:-[\w-]*)?|des3|des-ede3?(?:-[\w-]*)?|[\w-]*-ecb)`;

// The rules that catch a password hashed with a fast, broken digest (CWE-916, and CWE-328 with Java's digests).
const PASSWORD_HASH_RULES = [
  "js-weak-password-hash",
  "python-weak-password-hash",
  "php-weak-password-hash",
  "go-weak-password-hash",
  "ruby-weak-password-hash",
];

export const weakCryptography: BuiltinPolicy = {
  id: "weak-cryptography",
  name: "Weak cryptography",
  description:
    "Detects broken or unsuitable cryptography: MD5/SHA-1 used to hash passwords, weak digests in Java, and weak ciphers or ECB mode (DES, 3DES, RC2, RC4, Blowfish, AES/ECB, Node's deprecated createCipher) in JavaScript, Java, Python (also under import aliases), Go, PHP, Ruby and .NET. MD5/SHA-1 used for checksums is not reported: only for passwords.",
  severity: "warning",
  enabled: true,
  category: SECURITY_CATEGORY,
  frameworks: [
    ...CRYPTO_FRAMEWORKS,
    "owasp-asvs:V2.4.1",
    "owasp-asvs:V6.2.2",
    "owasp-asvs:V6.2.5",
    "cwe:CWE-327",
    "cwe:CWE-328",
    "cwe:CWE-916",
    "nist-csf:PR.DS-01",
    "csa-ccm:CEK-04",
    "pci-dss:8.3.2",
    "hipaa:164.312(a)(2)(iv)",
    "gdpr:Art.32(1)(a)",
    "nist-800-53:IA-5(1)",
    "fedramp-moderate:IA-5(1)",
    "nist-800-171:3.5.10",
    "cmmc:IA.L2-3.5.10",
    "eu-cra:I(2)(e)",
  ],
  patterns: [
    {
      id: "js-weak-password-hash",
      type: "regex",
      value: String.raw`\bcreateHash\s*\(\s*["'](?i:md5|md4|sha1|sha-1|ripemd160)["']\s*\)[^\n]*${PASSWORD}`,
      message: "Password hashed with MD5/SHA-1, which are fast and broken",
      paths: paths("js"),
    },
    {
      id: "python-weak-password-hash",
      type: "regex",
      value: String.raw`\bhashlib\.(?:md5|sha1|new\s*\(\s*["'](?i:md5|sha1)["'])[^\n]*${PASSWORD}`,
      message: "Password hashed with MD5/SHA-1, which are fast and broken",
      paths: paths("python"),
    },
    {
      id: "php-weak-password-hash",
      type: "regex",
      value: String.raw`(?i)(?:\b(?:md5|sha1)\s*\(|\bhash\s*\(\s*["'](?:md5|sha1)["']\s*,)[^;\n]*\$\w*(?:pass|pwd)`,
      message: "Password hashed with MD5/SHA-1, which are fast and broken",
      paths: paths("php"),
    },
    {
      id: "go-weak-password-hash",
      type: "regex",
      value: String.raw`\b(?:md5|sha1)\.(?:Sum|New)\w*\s*\([^\n]*${PASSWORD}`,
      message: "Password hashed with MD5/SHA-1, which are fast and broken",
      paths: paths("go"),
    },
    {
      id: "ruby-weak-password-hash",
      type: "regex",
      // Digest::MD5, OpenSSL::Digest::MD5 (also .new), OpenSSL::Digest.new("MD5"), and their SHA-1 forms.
      value: String.raw`(?:\b(?:OpenSSL::)?Digest::(?:MD5|SHA1)(?:\.new\s*(?:\(\s*\))?)?\.(?:hexdigest|digest|base64digest|update)\b|\bOpenSSL::Digest\.(?:new\s*\(\s*|(?:hexdigest|digest|base64digest)\s*\(\s*)["'](?i:md5|sha1)["'])[^\n]*${PASSWORD}`,
      message: "Password hashed with MD5/SHA-1, which are fast and broken",
      paths: paths("ruby"),
    },
    {
      id: "java-weak-message-digest",
      type: "regex",
      value: String.raw`\bMessageDigest\.getInstance\s*\(\s*"(?i:MD2|MD4|MD5|SHA-?1|SHA)"|\bDigestUtils\.(?:md5|sha1|sha)(?:Hex)?\s*\(`,
      message: "MD5/SHA-1 digest: broken for signatures and integrity, unsuitable for passwords",
      paths: paths("java"),
    },
    {
      id: "js-create-cipher",
      type: "regex",
      value: String.raw`\bcreate(?:Cipher|Decipher)\s*\(\s*["'\x60]`,
      message: "crypto.createCipher derives the key with MD5 and uses no IV (deprecated, removed in Node.js 22)",
      paths: paths("js"),
    },
    {
      id: "js-weak-cipher",
      type: "regex",
      value: String.raw`\bcreate(?:Cipheriv|Decipheriv)\s*\(\s*["']${WEAK_OPENSSL_CIPHER}["']`,
      message: "Weak cipher or ECB mode",
      paths: paths("js"),
    },
    {
      id: "java-weak-cipher",
      type: "regex",
      value: String.raw`\bCipher\.getInstance\s*\(\s*"(?i:DES|DESede|TripleDES|RC2|RC4|ARCFOUR|Blowfish)(?:/[^"]*)?"`,
      message: "Weak cipher (DES, 3DES, RC2, RC4 or Blowfish)",
      paths: paths("java"),
    },
    {
      id: "java-ecb-mode",
      type: "regex",
      // "AES" alone means AES/ECB/PKCS5Padding with the default providers.
      value: String.raw`\bCipher\.getInstance\s*\(\s*"(?i:AES|[A-Za-z0-9]+/ECB/[^"]*)"`,
      message: 'ECB mode leaks patterns of the plaintext ("AES" alone defaults to ECB)',
      paths: paths("java"),
    },
    {
      id: "python-weak-cipher",
      type: "regex",
      value: String.raw`\balgorithms\.(?:TripleDES|ARC4|Blowfish|IDEA|CAST5|SEED)\s*\(`,
      message: "Weak cipher (3DES, RC4, Blowfish, IDEA, CAST5, SEED)",
      paths: paths("python"),
    },
    {
      id: "python-weak-cipher-module",
      type: "regex",
      // DES.new(…), or the module under an alias (checked against the file's imports).
      value: String.raw`\b([A-Za-z_]\w*)\.new\s*\(`,
      message: "Weak cipher (DES, 3DES, RC2, RC4, Blowfish, CAST, XOR)",
      redact_group: 1,
      keywords: ["des", "arc2", "arc4", "blowfish", "cast", "xor"],
      paths: paths("python"),
      checks: ["python-weak-cipher-module"],
    },
    {
      id: "dotnet-ecb-mode",
      type: "regex",
      value: String.raw`\bCipherMode\.ECB\b|\.(?:Encrypt|Decrypt)Ecb\s*\(`,
      message: "ECB mode encrypts equal blocks to equal ciphertext and leaks patterns",
      paths: [String.raw`(?i)\.(?:cs|vb|fs)$`],
    },
    {
      id: "python-ecb-mode",
      type: "regex",
      value: String.raw`\bMODE_ECB\b|\bmodes\.ECB\s*\(|(?:^|[^\w.])ECB\s*\(`,
      message: "ECB mode leaks patterns of the plaintext",
      paths: paths("python"),
    },
    {
      id: "go-weak-cipher",
      type: "regex",
      value: String.raw`\b(?:des\.NewCipher|des\.NewTripleDESCipher|rc4\.NewCipher|blowfish\.NewCipher|cast5\.NewCipher)\s*\(`,
      message: "Weak cipher (DES, 3DES, RC4, Blowfish, CAST5)",
      paths: paths("go"),
    },
    {
      id: "php-weak-cipher",
      type: "regex",
      value: String.raw`(?i)\bopenssl_(?:en|de)crypt\s*\([^;\n]*["']${WEAK_OPENSSL_CIPHER}["']|\bmcrypt_(?:en|de)crypt\s*\(|\bMCRYPT_(?:DES|TRIPLEDES|BLOWFISH|RC2|ARCFOUR)\b|\bMCRYPT_MODE_ECB\b`,
      message: "Weak cipher, ECB mode or the removed mcrypt extension",
      paths: paths("php"),
    },
    {
      id: "ruby-weak-cipher",
      type: "regex",
      value: String.raw`\bOpenSSL::Cipher(?:::\w+)?\.new\s*\(\s*["']${WEAK_OPENSSL_CIPHER}["']`,
      message: "Weak cipher or ECB mode",
      paths: paths("ruby"),
    },
  ],
  suggestions: [
    "Hash passwords with a slow, salted KDF (Argon2id, scrypt, bcrypt or PBKDF2 with a high iteration count); encrypt with an authenticated mode (AES-GCM, ChaCha20-Poly1305) through a vetted library; use SHA-256 or better for integrity.",
  ],
  claims: {
    cwe: {
      "CWE-327": [
        "js-create-cipher",
        "js-weak-cipher",
        "java-weak-cipher",
        "java-ecb-mode",
        "python-weak-cipher",
        "python-weak-cipher-module",
        "dotnet-ecb-mode",
        "python-ecb-mode",
        "go-weak-cipher",
        "php-weak-cipher",
        "ruby-weak-cipher",
      ],
      "CWE-328": [...PASSWORD_HASH_RULES, "java-weak-message-digest"],
      "CWE-916": PASSWORD_HASH_RULES,
    },
    languages: ["csharp", "go", "java", "javascript", "php", "python", "ruby"],
  },
  documentation_url: docs("weak-cryptography"),
  settings: builtinSettings(),
};
