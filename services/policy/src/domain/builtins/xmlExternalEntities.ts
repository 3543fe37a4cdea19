// XML external entities (CWE-611): an XML parser that resolves a document's DTD and external
// entities reads local files or fetches addresses named by the document (OWASP's XML External
// Entity Prevention Cheat Sheet: disallow DOCTYPE declarations, or switch external entities and
// DTD loading off, on each parser factory).
import {
  type BuiltinPolicy,
  builtinSettings,
  docs,
  INJECTION_FRAMEWORKS,
  paths,
  SECURITY_CATEGORY,
  structural,
} from "./types.js";

// A method that configures its parser against XXE: a feature, attribute or property set on the
// factory (disallow-doctype-decl, external-general-entities, ACCESS_EXTERNAL_DTD,
// SUPPORT_DTD, IS_SUPPORTING_EXTERNAL_ENTITIES), or entity expansion switched off.
const JAVA_CONFIGURED = {
  inside: {
    any: [{ kind: "method_declaration" }, { kind: "constructor_declaration" }, { kind: "class_body" }],
    has: {
      kind: "method_invocation",
      any: [
        { has: { field: "name", regex: "^(?:setFeature|setExpandEntityReferences)$" } },
        {
          has: { field: "name", regex: "^(?:setAttribute|setProperty)$" },
          all: [
            {
              has: {
                field: "arguments",
                regex:
                  "ACCESS_EXTERNAL|SUPPORT_DTD|SUPPORTING_EXTERNAL_ENTITIES|accessExternal|supportDTD|external-entities",
              },
            },
          ],
        },
      ],
      stopBy: "end",
    },
    stopBy: "end",
  },
};

export const xmlExternalEntities: BuiltinPolicy = {
  id: "xml-external-entities",
  name: "XML external entities (XXE)",
  description:
    "Detects XML parsers that resolve external entities: a JAXP DocumentBuilderFactory, SAXParserFactory, XMLInputFactory, TransformerFactory, SchemaFactory or SAXReader / SAXBuilder whose parser is made in a method (or class) that sets no feature, attribute or property on it (Java); lxml XMLParser with resolve_entities=True or no_network=False, and xml.sax / pulldom parsers with the external general entities feature switched on (Python); libxmljs parseXml with noent: true (JavaScript, TypeScript).",
  severity: "error",
  enabled: true,
  category: SECURITY_CATEGORY,
  frameworks: [...INJECTION_FRAMEWORKS, "owasp-asvs:V5.5.2", "owasp-top-10:A05", "cwe:CWE-611"],
  patterns: [
    {
      id: "java-xml-parser-entities-on",
      type: "structural",
      // The parser (or reader, transformer, schema) made from a factory configured nowhere in the
      // method or class that makes it.
      value: structural(["java"], {
        kind: "method_invocation",
        has: {
          field: "name",
          regex:
            "^(?:newDocumentBuilder|newSAXParser|createXMLStreamReader|createXMLEventReader|newTransformer|newSchema|newXMLReader)$",
        },
        not: JAVA_CONFIGURED,
      }),
      message: "The XML parser resolves external entities and DTDs: its factory is never configured against XXE",
      keywords: [
        "newdocumentbuilder",
        "newsaxparser",
        "createxmlstreamreader",
        "createxmleventreader",
        "newtransformer",
        "newschema",
        "newxmlreader",
      ],
      file_requires: [
        String.raw`javax\.xml|org\.xml\.sax|DocumentBuilderFactory|SAXParserFactory|XMLInputFactory|TransformerFactory|SchemaFactory`,
      ],
    },
    {
      id: "python-xml-entities-on",
      type: "regex",
      value: String.raw`\bXMLParser\s*\([^)]*\b(?:resolve_entities\s*=\s*True|no_network\s*=\s*False)\b|\.setFeature\s*\(\s*(?:xml\.sax\.handler\.)?feature_external_(?:ges|pes)\s*,\s*(?:True|1)\s*\)`,
      message:
        "The XML parser resolves external entities (resolve_entities=True, no_network=False or feature_external_ges on)",
      paths: paths("python"),
    },
    {
      id: "js-xml-entities-on",
      type: "regex",
      value: String.raw`\b(?:parseXml|parseXmlString|parseXmlAsync|parseXmlStringAsync|parseHtml)\s*\([^;]*\bnoent\s*:\s*true\b`,
      message: "libxmljs substitutes external entities (noent: true)",
      paths: paths("js"),
    },
  ],
  suggestions: [
    'Switch DTDs and external entities off on every parser factory: Java factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true) (or external-general-entities and external-parameter-entities false, ACCESS_EXTERNAL_DTD and ACCESS_EXTERNAL_SCHEMA ""); lxml XMLParser(resolve_entities=False, no_network=True) or defusedxml; libxmljs without noent.',
  ],
  claims: {
    cwe: { "CWE-611": ["java-xml-parser-entities-on", "python-xml-entities-on", "js-xml-entities-on"] },
    languages: ["java", "javascript", "python"],
  },
  documentation_url: docs("xml-external-entities"),
  settings: builtinSettings(),
};
