#!/usr/bin/env python3
"""Unpacks the Kubernetes JSON schemas of a kubernetes-validate wheel for kubeconform, offline.

usage: schemas.py WHEEL DEST K8S_MINOR (e.g. 1.33)

kubernetes-validate ships strict schemas per Kubernetes minor version (one file per
<kind>-<group>-<version>, the names kubeconform expects, plus _definitions.json), but with an
absolute `$id` and `$ref`s rooted at /api/, so kubeconform would try to download them. This drops
`$id` and makes every `$ref` relative to the file, so `kubeconform -schema-location
'DEST/{{ .ResourceKind }}{{ .KindSuffix }}.json'` needs no network.
"""
import json, os, re, sys, zipfile

wheel, dest, minor = sys.argv[1], sys.argv[2], sys.argv[3]
prefix = f"kubernetes_validate/kubernetes-json-schema/v{minor}.0-local-strict/"
with zipfile.ZipFile(wheel) as z:
    names = [n for n in z.namelist() if n.startswith(prefix) and n.endswith(".json")]
    if not names:
        sys.exit(f"no strict schemas for Kubernetes {minor} in {wheel}")
    os.makedirs(dest, exist_ok=True)

    def fix(node):
        if isinstance(node, dict):
            node.pop("$id", None)
            for k, v in node.items():
                if k == "$ref" and isinstance(v, str):
                    node[k] = re.sub(r"^(https?://[^/]+)?/api/", "", v)
                else:
                    fix(v)
        elif isinstance(node, list):
            for v in node:
                fix(v)
        return node

    for n in names:
        with open(os.path.join(dest, n[len(prefix):]), "w") as f:
            json.dump(fix(json.loads(z.read(n))), f)
    print(f"{len(names)} schemas for Kubernetes {minor} in {dest}", file=sys.stderr)
