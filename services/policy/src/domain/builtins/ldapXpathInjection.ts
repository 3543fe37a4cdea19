// LDAP injection (CWE-90) and XPath injection (CWE-643): request input reaching the text of an
// LDAP search filter or of an XPath expression (OWASP's LDAP Injection Prevention Cheat Sheet:
// filter metacharacters `* ( ) \ NUL` change the query; XPath has no parameters in JAXP's
// evaluate, so text joined into the expression changes what it selects).
import {
  type BuiltinPolicy,
  builtinSettings,
  docs,
  INJECTION_FRAMEWORKS,
  SECURITY_CATEGORY,
  structural,
} from "./types.js";
import { JAVA_REQUEST_KEYWORDS, JAVA_REQUEST_SOURCES, javaSanitizers } from "./javaFlow.js";

export const ldapInjection: BuiltinPolicy = {
  id: "ldap-injection",
  name: "LDAP injection",
  description:
    "Detects LDAP search filters built from request input: servlet request input reaching the filter (or the name) of a JNDI DirContext.search within the method, through assignments, collections, builders and the file's own methods; not through a parse to a number or ESAPI encodeForLDAP / encodeForDN. Values passed as filter arguments ({0} in the filter, the Object[] argument) are not text of the filter and are no finding (Java).",
  severity: "error",
  enabled: true,
  category: SECURITY_CATEGORY,
  frameworks: [...INJECTION_FRAMEWORKS, "owasp-asvs:V5.3.7", "owasp-top-10:A03", "cwe:CWE-90"],
  patterns: [
    {
      id: "java-ldap-filter-from-request",
      type: "structural",
      value: structural(
        ["java"],
        { any: [{ pattern: "$CTX.search($NAME, $FILTER)" }, { pattern: "$CTX.search($NAME, $FILTER, $$$REST)" }] },
        undefined,
        { sink: "FILTER", sources: JAVA_REQUEST_SOURCES, sanitizers: javaSanitizers("encodeForLDAP|encodeForDN") },
      ),
      message: "An LDAP search filter is built from request input (it reaches the filter within the method)",
      keywords: JAVA_REQUEST_KEYWORDS,
      file_requires: [String.raw`\.search\s*\(`],
    },
  ],
  suggestions: [
    "Put request values into the filter as arguments ({0} placeholders with the Object[] filterArgs of DirContext.search), or escape them for LDAP filters (ESAPI encodeForLDAP, Spring LdapEncoder.filterEncode) and validate them against an allow list.",
  ],
  claims: { cwe: { "CWE-90": ["java-ldap-filter-from-request"] }, languages: ["java"] },
  documentation_url: docs("ldap-injection"),
  settings: builtinSettings(),
};

export const xpathInjection: BuiltinPolicy = {
  id: "xpath-injection",
  name: "XPath injection",
  description:
    "Detects XPath expressions built from request input: servlet request input reaching the expression of javax.xml.xpath's XPath.evaluate, evaluateExpression or compile, or of dom4j's selectNodes, selectSingleNode, valueOf, createXPath (and the rest of its XPath methods) within the method, through assignments, collections, builders and the file's own methods; not through a parse to a number or ESAPI encodeForXPath (Java).",
  severity: "error",
  enabled: true,
  category: SECURITY_CATEGORY,
  frameworks: [...INJECTION_FRAMEWORKS, "owasp-asvs:V5.3.10", "owasp-top-10:A03", "cwe:CWE-643"],
  patterns: [
    {
      id: "java-xpath-from-request",
      type: "structural",
      value: structural(
        ["java"],
        {
          any: [
            { pattern: "$XP.evaluate($EXPR)" },
            { pattern: "$XP.evaluate($EXPR, $$$REST)" },
            { pattern: "$XP.compile($EXPR)" },
            // Java 9: XPath.evaluateExpression(expression, item[, type]).
            { pattern: "$XP.evaluateExpression($EXPR, $$$REST)" },
          ],
        },
        undefined,
        { sink: "EXPR", sources: JAVA_REQUEST_SOURCES, sanitizers: javaSanitizers("encodeForXPath") },
      ),
      message: "An XPath expression is built from request input (it reaches the expression within the method)",
      keywords: JAVA_REQUEST_KEYWORDS,
      // The file uses javax.xml.xpath (or an XPath object by name).
      file_requires: [String.raw`(?i)xpath`],
    },
    {
      id: "java-dom4j-xpath-from-request",
      type: "structural",
      // dom4j evaluates the XPath expression its Node methods (selectNodes, selectObject,
      // selectSingleNode, valueOf, numberValueOf, matches), DocumentHelper / DocumentFactory
      // (createXPath, createPattern, createXPathFilter, selectNodes) and DefaultXPath /
      // XPathPattern's constructors are given: request input joined into it changes what it selects.
      value: structural(
        ["java"],
        {
          any: [
            { pattern: "$NODE.$SELECT($EXPR)" },
            { pattern: "$NODE.$SELECT($EXPR, $$$REST)" },
            { pattern: "new $XPATH($EXPR)" },
          ],
        },
        {
          SELECT: {
            regex:
              "^(?:selectNodes|selectObject|selectSingleNode|valueOf|numberValueOf|matches|createXPath|createPattern|createXPathFilter)$",
          },
          // An instance (a node, a factory) or dom4j's helper: not String.valueOf or another type's static method.
          NODE: { regex: "^(?:[a-z_]|DocumentHelper\\b|DocumentFactory\\b)" },
          XPATH: { regex: "^(?:org\\.dom4j\\.xpath\\.)?(?:DefaultXPath|XPathPattern)$" },
        },
        { sink: "EXPR", sources: JAVA_REQUEST_SOURCES, sanitizers: javaSanitizers("encodeForXPath") },
      ),
      message: "A dom4j XPath expression is built from request input (it reaches the expression within the method)",
      keywords: JAVA_REQUEST_KEYWORDS,
      // The file imports dom4j.
      file_requires: [String.raw`\borg\.dom4j\.`],
    },
  ],
  suggestions: [
    "Compile a constant XPath expression with variables ($name) and bind the request values through an XPathVariableResolver, or escape them (ESAPI encodeForXPath) and validate them against an allow list.",
  ],
  claims: { cwe: { "CWE-643": ["java-xpath-from-request", "java-dom4j-xpath-from-request"] }, languages: ["java"] },
  documentation_url: docs("xpath-injection"),
  settings: builtinSettings(),
};
