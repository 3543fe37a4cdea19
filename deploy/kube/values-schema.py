#!/usr/bin/env python3
# Writes charts/verdict/values.schema.json (the chart test checks the file matches):
#   python3 deploy/kube/values-schema.py > charts/verdict/values.schema.json
import json
RESERVED = ["VERDICT_DATA_DIR","VERDICT_MONGODB_URI","VERDICT_MONGODB_DATABASE","VERDICT_GRPC_HOST","VERDICT_GRPC_PORT","VERDICT_GRPC_BASE_PORT",
  "VERDICT_HTTP_HOST","VERDICT_HTTP_PORT","VERDICT_MCP_HOST","VERDICT_MCP_PORT","VERDICT_API_URL","VERDICT_BOOTSTRAP_API_KEY",
  "VERDICT_WEBHOOK_MASTER_KEY","VERDICT_REPORT_SIGNING_KEY","VERDICT_REPORT_PRIVATE_KEY","VERDICT_METRICS_PORT","VERDICT_METRICS_HOST","VERDICT_PUBLIC_URL","VERDICT_EVALUATION_WORKER"]
envval = {"type": ["string", "integer", "number", "boolean"]}
posint_s = {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string", "pattern": "^[1-9][0-9]*$"}]}
config = {
  "type": "object",
  "description": "VERDICT_*/OTEL_* variables (docs/configuration.md); the chart sets ports, addresses, data directory, MongoDB/Kafka and secrets itself.",
  "propertyNames": {"allOf": [
    {"pattern": "^(VERDICT|OTEL)_[A-Z0-9_]+$"},
    {"not": {"enum": RESERVED}},
    {"not": {"pattern": "^VERDICT_(KAFKA_[A-Z_]+|[A-Z]+_ADDRESS)$"}}]},
  "additionalProperties": envval,
  "properties": {
    "VERDICT_LOG_LEVEL": {"enum": ["fatal","error","warn","info","debug","trace","silent"]},
    "VERDICT_SHUTDOWN_GRACE_MS": posint_s,
    "VERDICT_SCAN_WORKERS": posint_s,
    "VERDICT_SCAN_THREADS_PER_ORG": posint_s,
    "VERDICT_TRUST_PROXY": {"type": "string"},
    "VERDICT_WEBHOOK_ALLOW_PRIVATE": {"enum": ["true", "false", True, False]},
    "VERDICT_WEBHOOK_ALLOW_HTTP": {"enum": ["true", "false", True, False]},
  },
}
qty = {"anyOf": [{"type": "string", "pattern": "^[0-9]+(\\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$"}, {"type": "number", "minimum": 0}]}
reslist = {"type": "object", "additionalProperties": False, "properties": {k: qty for k in ["cpu", "memory", "ephemeral-storage"]}}
resources = {"type": "object", "additionalProperties": False, "required": ["requests", "limits"],
  "properties": {"requests": dict(reslist, required=["cpu", "memory"]), "limits": dict(reslist, required=["memory"])}}
port = {"type": "integer", "minimum": 1, "maximum": 65535}
service = {"type": "object", "additionalProperties": False, "properties": {
  "type": {"enum": ["ClusterIP", "NodePort", "LoadBalancer"]}, "port": port,
  "nodePort": {"anyOf": [{"type": "null"}, {"type": "integer", "minimum": 30000, "maximum": 32767}]},
  "annotations": {"type": "object", "additionalProperties": {"type": "string"}}}}
autoscaling = {"type": "object", "additionalProperties": False, "properties": {
  "enabled": {"type": "boolean"}, "minReplicas": {"type": "integer", "minimum": 1}, "maxReplicas": {"type": "integer", "minimum": 1},
  "targetCPUUtilizationPercentage": {"type": "integer", "minimum": 1, "maximum": 100}}}
pdb = {"type": "object", "additionalProperties": False, "required": ["maxUnavailable"], "properties": {
  "maxUnavailable": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string", "pattern": "^[1-9][0-9]?%$|^100%$"}]}}}
def component(extra=None, replicas=True):
  p = {"replicaCount": {"type": "integer", "minimum": 1}, "pdb": pdb, "resources": resources, "config": config, "affinity": {"type": "object"}}
  p.update(extra or {})
  return {"type": "object", "additionalProperties": False, "required": ["replicaCount", "resources"], "properties": p}
image = {"type": "object", "additionalProperties": False, "required": ["repository"], "properties": {
  "repository": {"type": "string", "minLength": 1}, "tag": {"type": "string"},
  "digest": {"type": "string", "pattern": "^(sha256:[a-f0-9]{64})?$"},
  "pullPolicy": {"enum": ["Always", "IfNotPresent", "Never"]}}}
devsvc = {"type": "object", "additionalProperties": False, "properties": {
  "enabled": {"type": "boolean"}, "image": image, "heapOpts": {"type": "string"}, "resources": resources,
  "storage": {"type": "object", "additionalProperties": False, "properties": {"size": {"type": "string"}, "storageClassName": {"type": "string"}}},
  "persistence": {"type": "boolean"}}}
egress = {"type": "object", "additionalProperties": False, "properties": {
  "cidrs": {"type": "array", "minItems": 1, "items": {"type": "string", "pattern": "^[0-9a-fA-F:.]+/[0-9]{1,3}$"}},
  "ports": {"type": "array", "minItems": 1, "items": port}}}
secctx = {"type": "object"}
schema = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "Verdict chart values",
  "type": "object",
  "additionalProperties": False,
  "required": ["mode", "image"],
  "properties": {
    "global": {"type": "object"},
    "mode": {"enum": ["allInOne", "distributed"]},
    "nameOverride": {"type": "string"}, "fullnameOverride": {"type": "string"},
    "image": image,
    "imagePullSecrets": {"type": "array", "items": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}},
    "config": config,
    "publicUrl": {"type": "string", "pattern": "^(https?://[^\\s/]+(/\\S*)?)?$"},
    "secrets": {"type": "object", "additionalProperties": False, "properties": {
      "existingSecret": {"type": "string"},
      "bootstrapApiKey": {"type": "string", "pattern": "^(vdt_key_(prod|test)_[0-9A-Za-z]{38})?$"},
      "webhookMasterKey": {"type": "string", "pattern": "^([A-Za-z0-9+/]{43}=)?$", "description": "base64 of 32 bytes"},
      "reportSigningKey": {"anyOf": [{"const": ""}, {"type": "string", "minLength": 32}]},
      "reportPrivateKey": {"type": "string", "pattern": "^(-----BEGIN PRIVATE KEY-----[\\s\\S]+-----END PRIVATE KEY-----\\s*)?$",
                           "description": "Ed25519 private key, PKCS#8 PEM"}}},
    "mongodb": {"type": "object", "additionalProperties": False, "properties": {
      "uri": {"type": "string", "pattern": "^(mongodb(\\+srv)?://\\S+)?$"},
      "existingSecret": {"type": "string"}, "existingSecretKey": {"type": "string", "minLength": 1},
      "database": {"type": "string", "pattern": "^[^/\\\\. \"$]*$"}, "egress": egress}},
    "kafka": {"type": "object", "additionalProperties": False, "properties": {
      "brokers": {"type": "string", "pattern": "^([A-Za-z0-9.-]+:[0-9]{1,5}(,[A-Za-z0-9.-]+:[0-9]{1,5})*)?$"},
      "clientId": {"type": "string"}, "topicPrefix": {"type": "string", "pattern": "^[A-Za-z0-9._-]*$"},
      "topicPartitions": {"type": "integer", "minimum": 1}, "replicationFactor": {"type": "integer", "minimum": 1},
      "tls": {"type": "object", "additionalProperties": False, "properties": {
        "enabled": {"type": "boolean"}, "caSecret": {"type": "string"}, "caSecretKey": {"type": "string", "minLength": 1}}},
      "sasl": {"type": "object", "additionalProperties": False, "properties": {
        "mechanism": {"enum": ["", "plain", "scram-sha-256", "scram-sha-512"]},
        "username": {"type": "string"}, "password": {"type": "string"},
        "existingSecret": {"type": "string"}, "existingSecretKey": {"type": "string", "minLength": 1}}},
      "egress": egress}},
    "devServices": {"type": "object", "additionalProperties": False, "properties": {"kafka": devsvc, "mongodb": devsvc}},
    "serviceAccount": {"type": "object", "additionalProperties": False, "properties": {
      "create": {"type": "boolean"}, "name": {"type": "string"}, "annotations": {"type": "object"}}},
    "podSecurityContext": secctx, "securityContext": secctx,
    "preStopSleepSeconds": {"type": "integer", "minimum": 0, "maximum": 120},
    "podAnnotations": {"type": "object", "additionalProperties": {"type": "string"}},
    "podLabels": {"type": "object", "additionalProperties": {"type": "string"}},
    "nodeSelector": {"type": "object", "additionalProperties": {"type": "string"}},
    "tolerations": {"type": "array"},
    "priorityClassName": {"type": "string"},
    "topologySpread": {"type": "object", "additionalProperties": False, "properties": {
      "enabled": {"type": "boolean"}, "whenUnsatisfiable": {"enum": ["ScheduleAnyway", "DoNotSchedule"]}}},
    "metrics": {"type": "object", "additionalProperties": False, "properties": {"enabled": {"type": "boolean"}, "port": port}},
    "gateway": component({"service": service, "autoscaling": autoscaling}),
    "identity": component(), "policy": component(), "evaluation": component(),
    "evaluationWorker": component({"autoscaling": autoscaling}),
    "compliance": component(), "webhooks": component(),
    "mcp": component({"enabled": {"type": "boolean"}, "service": service}),
    "allInOne": {"type": "object", "additionalProperties": False, "properties": {
      "service": service, "resources": resources, "config": config, "affinity": {"type": "object"},
      "persistence": {"type": "object", "additionalProperties": False, "properties": {
        "enabled": {"type": "boolean"}, "size": {"type": "string"}, "storageClassName": {"type": "string"}, "existingClaim": {"type": "string"}}}}},
    "ingress": {"type": "object", "additionalProperties": False, "properties": {
      "enabled": {"type": "boolean"}, "className": {"type": "string"}, "annotations": {"type": "object"},
      "host": {"type": "string", "pattern": "^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$"},
      "tls": {"type": "object", "additionalProperties": False, "properties": {"enabled": {"type": "boolean"}, "secretName": {"type": "string"}}},
      "mcp": {"type": "boolean"}}},
    "networkPolicy": {"type": "object", "additionalProperties": False, "properties": {
      "enabled": {"type": "boolean"}, "ingressFrom": {"type": "array"}, "metricsFrom": {"type": "array"},
      "dns": {"type": "object"},
      "webhooksExceptCIDRs": {"type": "array", "items": {"type": "string"}},
      "webhooksExceptCIDRsV6": {"type": "array", "items": {"type": "string"}}}},
    "tests": {"type": "object", "additionalProperties": False, "properties": {"resources": resources}},
  },
}
defs = {"config": config, "resources": resources, "service": service, "autoscaling": autoscaling, "pdb": pdb, "image": image, "devService": devsvc, "egress": egress}
def sub(node):
    if isinstance(node, dict):
        for name, d in defs.items():
            if node is d:
                return {"$ref": "#/definitions/" + name}
        return {k: sub(v) for k, v in node.items()}
    if isinstance(node, list):
        return [sub(v) for v in node]
    return node
out = sub(schema)
out["definitions"] = {name: {k: sub(v) for k, v in d.items()} for name, d in defs.items()}
print(json.dumps(out, indent=2))
