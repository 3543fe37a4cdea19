// Ruby deserializers that build arbitrary objects from their input, given request input within
// the method (unsafe-deserialization). From the libraries' documentation:
// - JSON.load / JSON.restore: "not safe to use with untrusted data" (it honours create_additions
//   and json_class, which instantiate the class the document names); JSON.parse is the safe one.
// - Oj.load in its default :object mode (or `mode: :object`) and Oj.object_load revive any class
//   named in the document; other modes (:strict, :compat, :rails …) load plain data.
// - Ox.parse_obj and Ox.load with `mode: :object` do the same for XML.
// - Hash.from_trusted_xml (ActiveSupport) reads `type="yaml"` elements with YAML.load.
// - Plist.parse_xml Marshal-loads `<data>` elements unless given `marshal: false`.
// - Psych's parse trees turned into objects with `.to_ruby` are YAML.unsafe_load.
import { RUBY_REQUEST_KEYWORDS, RUBY_REQUEST_SOURCES, rubyCall } from "./rubyFlow.js";
import { type BuiltinPattern, structural } from "./types.js";

/** An option `name: value` (or `:name => value`) among a call's arguments. */
const option = (name: string, value: string) => ({
  has: {
    field: "arguments",
    has: { kind: "pair", regex: String.raw`^(?::${name}\s*=>|${name}:)\s*${value}$` },
  },
});
/** A call with one argument only (no options). */
const ONE_ARGUMENT = { has: { field: "arguments", not: { has: { nthChild: 2 } } } };

export const RUBY_DESERIALIZE_FROM_REQUEST: BuiltinPattern = {
  id: "ruby-deserialize-from-request",
  type: "structural",
  value: structural(
    ["ruby"],
    {
      any: [
        rubyCall("load|restore", "JSON"),
        rubyCall("object_load", "Oj"),
        { all: [rubyCall("load", "Oj"), { any: [ONE_ARGUMENT, option("mode", ":object")] }] },
        rubyCall("parse_obj", "Ox"),
        { all: [rubyCall("load", "Ox"), option("mode", ":object")] },
        rubyCall("from_trusted_xml", "Hash"),
        { all: [rubyCall("parse_xml", "Plist"), { not: option("marshal", "false") }] },
        {
          kind: "call",
          all: [{ has: { field: "method", regex: "^to_ruby$" } }, { has: { field: "receiver", pattern: "$FIRST" } }],
        },
      ],
    },
    undefined,
    { sink: "FIRST", sources: RUBY_REQUEST_SOURCES },
  ),
  message:
    "Request input reaches a deserializer that builds arbitrary objects (JSON.load, Oj/Ox object mode, Plist with Marshal, Psych to_ruby)",
  keywords: RUBY_REQUEST_KEYWORDS,
  file_requires: [String.raw`\b(?:JSON\.(?:load|restore)|Oj\.|Ox\.|from_trusted_xml|Plist\.parse_xml|\.to_ruby)\b`],
};
