// C# rules of the insecure-code policies (deserialization, XSS), each spread into its policy's
// patterns. Written from Microsoft's documentation: the BinaryFormatter security guide
// ("BinaryFormatter is insecure and can't be made secure"), Json.NET's TypeNameHandling notes and
// ASP.NET Core's XSS guidance (Html.Raw bypasses Razor's encoding).
import { type BuiltinPattern, structural } from "./types.js";

/** Razor views and components: where Html.Raw writes into a page. */
const RAZOR = [String.raw`(?i)\.(?:cshtml|razor)$`];

export const CSHARP_DESERIALIZATION: BuiltinPattern[] = [
  {
    id: "csharp-insecure-formatter",
    type: "structural",
    value: structural(["csharp"], {
      kind: "object_creation_expression",
      has: {
        field: "type",
        regex: String.raw`^(?:[\w.]+\.)?(?:BinaryFormatter|SoapFormatter|NetDataContractSerializer|LosFormatter|ObjectStateFormatter)$`,
      },
    }),
    message:
      "BinaryFormatter, SoapFormatter, NetDataContractSerializer, LosFormatter and ObjectStateFormatter can run code chosen by whoever wrote the data",
    keywords: ["formatter", "netdatacontractserializer"],
  },
  {
    id: "csharp-json-type-name-handling",
    type: "structural",
    // Json.NET (Newtonsoft) instantiating the types the JSON names ($type): any setting but None.
    value: structural(["csharp"], {
      kind: "member_access_expression",
      regex: String.raw`^(?:Newtonsoft\.Json\.)?TypeNameHandling\.(?:All|Auto|Objects|Arrays)$`,
    }),
    message: "Json.NET TypeNameHandling other than None lets the JSON choose which types are created ($type)",
    keywords: ["typenamehandling"],
  },
];

export const CSHARP_XSS: BuiltinPattern[] = [
  {
    id: "csharp-html-raw",
    type: "regex",
    // Html.Raw of anything but a string literal writes it into the page without encoding.
    value: String.raw`\bHtml\.Raw\s*\(\s*[^"\s)]`,
    message: "Html.Raw writes a value into the page without HTML encoding",
    paths: RAZOR,
  },
];
