{{/* Names */}}
{{- define "verdict.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "verdict.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "verdict.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "verdict.labels" -}}
helm.sh/chart: {{ include "verdict.chart" . }}
app.kubernetes.io/name: {{ include "verdict.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: verdict
{{- end -}}

{{/* Selector labels of one component: (dict "root" $ "component" "gateway") */}}
{{- define "verdict.selectorLabels" -}}
app.kubernetes.io/name: {{ include "verdict.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "verdict.componentName" -}}
{{- printf "%s-%s" (include "verdict.fullname" .root) (.component | kebabcase) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "verdict.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "verdict.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "verdict.secretName" -}}
{{- default (printf "%s-secrets" (include "verdict.fullname" .)) .Values.secrets.existingSecret -}}
{{- end -}}

{{- define "verdict.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
{{- end -}}

{{/*
The services of distributed mode: program, port, protocol, which components call it (ingress),
which it calls (egress), and whether it opens the store and the bus.
*/}}
{{- define "verdict.components" -}}
gateway: {program: verdict-gateway, port: 8080, portName: http, probe: http, path: /v1/health/ready, calls: [identity, policy, evaluation, compliance, webhooks], data: false, public: true}
identity: {program: verdict-identity, port: 50051, portName: grpc, probe: grpc, calls: [policy], callers: [gateway, evaluation, evaluationWorker, compliance], data: true}
policy: {program: verdict-policy, port: 50052, portName: grpc, probe: grpc, calls: [], callers: [gateway, identity, evaluation, evaluationWorker, compliance], data: true}
evaluation: {program: verdict-evaluation, port: 50053, portName: grpc, probe: grpc, calls: [policy, identity], callers: [gateway], data: true}
evaluationWorker: {program: verdict-evaluation, port: 50053, portName: grpc, probe: grpc, calls: [policy, identity], callers: [], data: true, noService: true}
compliance: {program: verdict-compliance, port: 50054, portName: grpc, probe: grpc, calls: [policy, identity], callers: [gateway], data: true}
webhooks: {program: verdict-webhooks, port: 50055, portName: grpc, probe: grpc, calls: [], callers: [gateway], data: true, internet: true}
mcp: {program: verdict-mcp, port: 8090, portName: http, probe: http, path: /health, calls: [gateway], data: false, public: true}
{{- end -}}

{{- define "verdict.kafkaBrokers" -}}
{{- if .Values.devServices.kafka.enabled -}}
{{- printf "%s-kafka:9092" (include "verdict.fullname" .) -}}
{{- else -}}
{{- .Values.kafka.brokers -}}
{{- end -}}
{{- end -}}

{{/* Seconds: preStop sleep + VERDICT_SHUTDOWN_GRACE_MS + 5 (the process exits by itself at grace + 10 s at worst). */}}
{{- define "verdict.terminationGrace" -}}
{{- $graceMs := int (default "15000" (index .Values.config "VERDICT_SHUTDOWN_GRACE_MS")) -}}
{{- add (int .Values.preStopSleepSeconds) (div (add $graceMs 999) 1000) 5 -}}
{{- end -}}

{{/* Environment shared by the Verdict containers: (dict "root" $ "component" name "c" component-values "data" bool) */}}
{{- define "verdict.env" -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
{{- $full := include "verdict.fullname" $root -}}
- name: VERDICT_DATA_DIR
  value: /data
{{- if .data }}
{{- if or $v.mongodb.uri $v.mongodb.existingSecret $v.devServices.mongodb.enabled }}
- name: VERDICT_MONGODB_URI
  valueFrom:
    secretKeyRef:
      name: {{ if $v.mongodb.existingSecret }}{{ $v.mongodb.existingSecret }}{{ else }}{{ include "verdict.secretName" $root }}-db{{ end }}
      key: {{ if $v.mongodb.existingSecret }}{{ $v.mongodb.existingSecretKey }}{{ else }}mongodb-uri{{ end }}
{{- end }}
{{- with $v.mongodb.database }}
- name: VERDICT_MONGODB_DATABASE
  value: {{ . | quote }}
{{- end }}
{{- end }}
{{- if or .data .bus }}
{{- $brokers := include "verdict.kafkaBrokers" $root }}
{{- if $brokers }}
- name: VERDICT_KAFKA_BROKERS
  value: {{ $brokers | quote }}
- name: VERDICT_KAFKA_TOPIC_PARTITIONS
  value: {{ $v.kafka.topicPartitions | quote }}
- name: VERDICT_KAFKA_REPLICATION_FACTOR
  value: {{ $v.kafka.replicationFactor | quote }}
{{- with $v.kafka.topicPrefix }}
- name: VERDICT_KAFKA_TOPIC_PREFIX
  value: {{ . | quote }}
{{- end }}
{{- with $v.kafka.clientId }}
- name: VERDICT_KAFKA_CLIENT_ID
  value: {{ . | quote }}
{{- end }}
{{- if $v.kafka.tls.enabled }}
- name: VERDICT_KAFKA_SSL
  value: "true"
{{- if $v.kafka.tls.caSecret }}
- name: VERDICT_KAFKA_SSL_CA_FILE
  value: /etc/verdict/kafka-ca/{{ $v.kafka.tls.caSecretKey }}
{{- end }}
{{- end }}
{{- if $v.kafka.sasl.mechanism }}
- name: VERDICT_KAFKA_SASL_MECHANISM
  value: {{ $v.kafka.sasl.mechanism | quote }}
- name: VERDICT_KAFKA_SASL_USERNAME
  value: {{ $v.kafka.sasl.username | quote }}
- name: VERDICT_KAFKA_SASL_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ if $v.kafka.sasl.existingSecret }}{{ $v.kafka.sasl.existingSecret }}{{ else }}{{ include "verdict.secretName" $root }}-db{{ end }}
      key: {{ if $v.kafka.sasl.existingSecret }}{{ $v.kafka.sasl.existingSecretKey }}{{ else }}kafka-sasl-password{{ end }}
{{- end }}
{{- end }}
{{- end }}
{{- if $v.metrics.enabled }}
- name: VERDICT_METRICS_PORT
  value: {{ $v.metrics.port | quote }}
- name: VERDICT_METRICS_HOST
  value: "0.0.0.0"
{{- end }}
{{- $publicUrl := $v.publicUrl -}}
{{- if and (not $publicUrl) $v.ingress.enabled -}}
{{- $publicUrl = printf "%s://%s" (ternary "https" "http" (and $v.ingress.tls.enabled (ne $v.ingress.tls.secretName ""))) $v.ingress.host -}}
{{- end }}
{{- with $publicUrl }}
- name: VERDICT_PUBLIC_URL
  value: {{ . | quote }}
{{- end }}
{{- range $k, $val := merge (dict) (.c.config | default dict) $v.config }}
- name: {{ $k }}
  value: {{ $val | toString | quote }}
{{- end }}
{{- end -}}

{{/* Secret-backed key variables: (dict "root" $ "keys" (list "bootstrap-api-key" ...)) */}}
{{- define "verdict.secretEnv" -}}
{{- $root := .root -}}
{{- range .keys }}
- name: {{ get (dict "bootstrap-api-key" "VERDICT_BOOTSTRAP_API_KEY" "webhook-master-key" "VERDICT_WEBHOOK_MASTER_KEY" "report-signing-key" "VERDICT_REPORT_SIGNING_KEY" "report-private-key" "VERDICT_REPORT_PRIVATE_KEY") . }}
  valueFrom:
    secretKeyRef:
      name: {{ include "verdict.secretName" $root }}
      key: {{ . }}
      {{- /* An existing Secret made before report files were signed has no report-private-key: the service then keeps its own in /data. */}}
      {{- if or (eq . "bootstrap-api-key") (eq . "report-private-key") }}
      optional: true
      {{- end }}
{{- end }}
{{- end -}}

{{/* Pod scheduling: (dict "root" $ "component" name "c" values) */}}
{{- define "verdict.scheduling" -}}
{{- $v := .root.Values -}}
{{- with $v.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $v.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $v.priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
affinity:
  {{- if .c.affinity }}
  {{- toYaml .c.affinity | nindent 2 }}
  {{- else }}
  podAntiAffinity:
    preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 100
        podAffinityTerm:
          topologyKey: kubernetes.io/hostname
          labelSelector:
            matchLabels:
              {{- include "verdict.selectorLabels" (dict "root" .root "component" .component) | nindent 14 }}
  {{- end }}
{{- if $v.topologySpread.enabled }}
topologySpreadConstraints:
  {{- range list "topology.kubernetes.io/zone" "kubernetes.io/hostname" }}
  - maxSkew: 1
    topologyKey: {{ . }}
    whenUnsatisfiable: {{ $v.topologySpread.whenUnsatisfiable }}
    labelSelector:
      matchLabels:
        {{- include "verdict.selectorLabels" (dict "root" $.root "component" $.component) | nindent 8 }}
    matchLabelKeys: [pod-template-hash]
  {{- end }}
{{- end }}
{{- end -}}

{{/* Probes: (dict "probe" "grpc"|"http" "port" n "path" p) */}}
{{- define "verdict.probes" -}}
{{- $handler := "" -}}
{{- if eq .probe "grpc" -}}
{{- $handler = printf "grpc:\n  port: %v" .port -}}
{{- else -}}
{{- $handler = printf "httpGet:\n  path: %s\n  port: %s" .path .portName -}}
{{- end }}
startupProbe:
  {{- $handler | nindent 2 }}
  periodSeconds: 2
  timeoutSeconds: 3
  failureThreshold: 60
readinessProbe:
  {{- $handler | nindent 2 }}
  periodSeconds: 5
  timeoutSeconds: 3
  failureThreshold: 2
{{- /* Liveness only asks whether the process still accepts connections for HTTP (a slow health
answer under load must not restart it); gRPC services answer the health protocol themselves. */}}
livenessProbe:
  {{- if eq .probe "grpc" }}
  {{- $handler | nindent 2 }}
  {{- else }}
  tcpSocket:
    port: {{ .portName }}
  {{- end }}
  periodSeconds: 15
  timeoutSeconds: 5
  failureThreshold: 4
{{- end -}}

{{/* Refuse combinations that cannot work. */}}
{{- define "verdict.validate" -}}
{{- if eq .Values.mode "distributed" -}}
{{- if not (or .Values.mongodb.uri .Values.mongodb.existingSecret .Values.devServices.mongodb.enabled) -}}
{{- fail "mode distributed needs a MongoDB: set mongodb.uri or mongodb.existingSecret (or devServices.mongodb.enabled for tests)" -}}
{{- end -}}
{{- if not (or .Values.kafka.brokers .Values.devServices.kafka.enabled) -}}
{{- fail "mode distributed needs Kafka: set kafka.brokers (or devServices.kafka.enabled for tests)" -}}
{{- end -}}
{{- end -}}
{{- if and .Values.kafka.sasl.mechanism (not .Values.kafka.sasl.username) -}}
{{- fail "kafka.sasl.mechanism needs kafka.sasl.username" -}}
{{- end -}}
{{- if and .Values.kafka.sasl.mechanism (not (or .Values.kafka.sasl.password .Values.kafka.sasl.existingSecret)) -}}
{{- fail "kafka.sasl.mechanism needs kafka.sasl.password or kafka.sasl.existingSecret" -}}
{{- end -}}
{{- end -}}
