{{/*
The Deployment, Service and PodDisruptionBudget of one role. All four roles run the same image
with a different subcommand, so they share these shapes; what differs (the role's environment,
its gRPC service name for readiness, extra volumes) is passed in:

  (dict "root" $                     the chart's root context
        "component" "table-referee"  app.kubernetes.io/component and the name suffix
        "role" "table-referee"       the arena subcommand
        "values" .Values.referee     the role's block of values
        "grpcService" "arena.v1.TableReferee"   what readiness asks grpc.health.v1 about
        "env" (list …)               the role's own environment variables
        "volumes" (list …) "volumeMounts" (list …)   optional, besides /tmp
        "ports" (list …)             optional container ports besides grpc
        "probePort" 50055            optional: where the probes ask, if not the grpc port
        "tls" true                   optional: the grpc port speaks TLS, not cleartext HTTP/2
        "servicePorts" (list …)      optional Service ports besides grpc (and metrics)
        "noMetricsPort" true         optional: keep the metrics port off this Service (bot-host's
                                     public one; its internal seats Service has it)
        "clusterToken" true          optional: mount the cluster token (bot-host, referees)
        "operatorToken" true)        optional: mount the bootstrap operator token

Secrets are mounted under /run/secrets/arena, outside what sandboxed bot programs may read.
*/}}

{{- define "arena.deployment" -}}
{{- $root := .root -}}
{{- $v := .values -}}
{{- $ctx := dict "root" $root "component" .component -}}
{{- $autoscaled := or (and (hasKey $v "autoscaling") $v.autoscaling.enabled) (and (hasKey $v "keda") $v.keda.enabled) -}}
{{- $metrics := $root.Values.metrics -}}
{{- $probePort := default $v.port .probePort -}}
{{- $redisCa := $root.Values.redis.caSecret -}}
{{- $otelCa := and $root.Values.otel.enabled $root.Values.otel.caSecret -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "arena.componentName" $ctx }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "arena.componentLabels" $ctx | nindent 4 }}
spec:
  {{- /* Under an HPA the replica count is the autoscaler's; rendering it would reset it on every upgrade. */}}
  {{- if not $autoscaled }}
  replicas: {{ $v.replicaCount }}
  {{- end }}
  revisionHistoryLimit: 5
  {{- with $v.strategy }}
  strategy:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "arena.selectorLabels" $ctx | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "arena.componentLabels" $ctx | nindent 8 }}
        {{- with (merge (deepCopy (default (dict) $v.podLabels)) $root.Values.podLabels) }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      annotations:
        {{- /* Settings reach the pods as environment variables, read once at start: roll the pods when they change. */}}
        checksum/config: {{ include (print $root.Template.BasePath "/configmap.yaml") $root | sha256sum }}
        checksum/secret: {{ include (print $root.Template.BasePath "/secret.yaml") $root | sha256sum }}
        {{- with (merge (deepCopy (default (dict) $v.podAnnotations)) $root.Values.podAnnotations) }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ include "arena.serviceAccountName" $root }}
      automountServiceAccountToken: {{ $root.Values.automountServiceAccountToken }}
      {{- /* Service links would inject ARENA_*_PORT-style variables into arena's own ARENA_ namespace. */}}
      enableServiceLinks: false
      {{- with $root.Values.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $root.Values.priorityClassName }}
      priorityClassName: {{ . }}
      {{- end }}
      securityContext:
        {{- toYaml $root.Values.podSecurityContext | nindent 8 }}
      terminationGracePeriodSeconds: {{ $v.terminationGracePeriodSeconds }}
      containers:
        - name: {{ .component }}
          image: {{ include "arena.image" $root | quote }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          args:
            - {{ .role | quote }}
            {{- range $v.extraArgs }}
            - {{ . | quote }}
            {{- end }}
          ports:
            - name: grpc
              containerPort: {{ $v.port }}
              protocol: TCP
            {{- with .ports }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
            {{- if $metrics.enabled }}
            - name: metrics
              containerPort: {{ $metrics.port }}
              protocol: TCP
            {{- end }}
          envFrom:
            - configMapRef:
                name: {{ include "arena.fullname" $root }}
            {{- with $v.extraEnvFrom }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
          env:
            {{- /* Defined first: later values refer to them as $(POD_NAME) etc. */}}
            - name: POD_NAME
              valueFrom:
                fieldRef:
                  fieldPath: metadata.name
            - name: POD_NAMESPACE
              valueFrom:
                fieldRef:
                  fieldPath: metadata.namespace
            - name: POD_IP
              valueFrom:
                fieldRef:
                  fieldPath: status.podIP
            - name: ARENA_REDIS_URL
              valueFrom:
                secretKeyRef:
                  name: {{ include "arena.redisSecretName" $root }}
                  key: {{ include "arena.redisSecretKey" $root }}
            {{- if .clusterToken }}
            - name: ARENA_CLUSTER_TOKEN_FILE
              value: {{ printf "/run/secrets/arena/cluster/%s" $root.Values.auth.clusterToken.key | quote }}
            {{- end }}
            {{- if .operatorToken }}
            - name: ARENA_OPERATOR_TOKEN_FILE
              value: {{ printf "/run/secrets/arena/operator/%s" $root.Values.auth.operatorToken.key | quote }}
            {{- end }}
            {{- if $redisCa }}
            - name: ARENA_REDIS_CA_FILE
              value: {{ printf "/etc/arena/redis-ca/%s" $root.Values.redis.caSecretKey | quote }}
            {{- end }}
            {{- if $root.Values.otel.enabled }}
            {{- if $otelCa }}
            - name: OTEL_EXPORTER_OTLP_CERTIFICATE
              value: {{ printf "/etc/arena/otel-ca/%s" $root.Values.otel.caSecretKey | quote }}
            {{- end }}
            - name: OTEL_RESOURCE_ATTRIBUTES
              value: {{ include "arena.otelResourceAttributes" $root | quote }}
            {{- with $root.Values.otel.headersSecret }}
            - name: OTEL_EXPORTER_OTLP_HEADERS
              valueFrom:
                secretKeyRef:
                  name: {{ . }}
                  key: {{ $root.Values.otel.headersSecretKey }}
            {{- end }}
            {{- end }}
            {{- if $metrics.enabled }}
            - name: ARENA_METRICS_LISTEN
              value: {{ include "arena.listen" (dict "root" $root "port" $metrics.port) | quote }}
            {{- end }}
            {{- with .env }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
            {{- with $v.extraEnv }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
          startupProbe:
            grpc:
              port: {{ $probePort }}
            {{- toYaml $root.Values.probes.startup | nindent 12 }}
          livenessProbe:
            grpc:
              port: {{ $probePort }}
            {{- toYaml $root.Values.probes.liveness | nindent 12 }}
          readinessProbe:
            grpc:
              port: {{ $probePort }}
              service: {{ .grpcService | quote }}
            {{- toYaml $root.Values.probes.readiness | nindent 12 }}
          {{- if gt (int $root.Values.preStopSleepSeconds) 0 }}
          lifecycle:
            preStop:
              exec:
                command: ["sleep", {{ $root.Values.preStopSleepSeconds | quote }}]
          {{- end }}
          resources:
            {{- toYaml $v.resources | nindent 12 }}
          securityContext:
            {{- toYaml $root.Values.securityContext | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
            {{- if .clusterToken }}
            - name: cluster-token
              mountPath: /run/secrets/arena/cluster
              readOnly: true
            {{- end }}
            {{- if .operatorToken }}
            - name: operator-token
              mountPath: /run/secrets/arena/operator
              readOnly: true
            {{- end }}
            {{- if $redisCa }}
            - name: redis-ca
              mountPath: /etc/arena/redis-ca
              readOnly: true
            {{- end }}
            {{- if $otelCa }}
            - name: otel-ca
              mountPath: /etc/arena/otel-ca
              readOnly: true
            {{- end }}
            {{- with .volumeMounts }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
            {{- with $v.extraVolumeMounts }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
      volumes:
        {{- /* The root filesystem is read-only; /tmp is the one writable place every role gets. */}}
        - name: tmp
          emptyDir:
            sizeLimit: {{ $root.Values.tmpSizeLimit }}
        {{- if .clusterToken }}
        - name: cluster-token
          secret:
            secretName: {{ include "arena.clusterTokenSecret" $root }}
            defaultMode: 288
        {{- end }}
        {{- if .operatorToken }}
        - name: operator-token
          secret:
            secretName: {{ include "arena.operatorTokenSecret" $root }}
            defaultMode: 288
        {{- end }}
        {{- if $redisCa }}
        - name: redis-ca
          secret:
            secretName: {{ $redisCa }}
        {{- end }}
        {{- if $otelCa }}
        - name: otel-ca
          secret:
            secretName: {{ $root.Values.otel.caSecret }}
        {{- end }}
        {{- with .volumes }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
        {{- with $v.extraVolumes }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- with (merge (deepCopy (default (dict) $v.nodeSelector)) $root.Values.nodeSelector) }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with (concat $root.Values.tolerations (default (list) $v.tolerations)) }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with (default $root.Values.affinity $v.affinity) }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $v.topologySpreadConstraints }}
      topologySpreadConstraints:
        {{- toYaml . | nindent 8 }}
      {{- end }}
{{- end -}}

{{- define "arena.service" -}}
{{- $root := .root -}}
{{- $v := .values -}}
{{- $ctx := dict "root" $root "component" .component -}}
{{- $svc := $v.service -}}
{{- $external := or (eq $svc.type "NodePort") (eq $svc.type "LoadBalancer") -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "arena.componentName" $ctx }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "arena.componentLabels" $ctx | nindent 4 }}
  {{- with $svc.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  type: {{ $svc.type }}
  selector:
    {{- include "arena.selectorLabels" $ctx | nindent 4 }}
  ports:
    - name: grpc
      port: {{ $v.port }}
      targetPort: grpc
      protocol: TCP
      {{- /* Cleartext HTTP/2: lets meshes and gateways treat the port as gRPC, not as HTTP/1.1. A TLS port has no such standard name. */}}
      {{- if not .tls }}
      appProtocol: kubernetes.io/h2c
      {{- end }}
      {{- if and $external $svc.nodePort }}
      nodePort: {{ $svc.nodePort }}
      {{- end }}
    {{- with .servicePorts }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
    {{- if and $root.Values.metrics.enabled (not .noMetricsPort) }}
    {{- include "arena.metricsServicePort" $root | nindent 4 }}
    {{- end }}
  {{- if and $svc.sessionAffinity (ne $svc.sessionAffinity "None") }}
  sessionAffinity: {{ $svc.sessionAffinity }}
  {{- with $svc.sessionAffinityTimeoutSeconds }}
  sessionAffinityConfig:
    clientIP:
      timeoutSeconds: {{ . }}
  {{- end }}
  {{- end }}
  {{- if and $external $svc.externalTrafficPolicy }}
  externalTrafficPolicy: {{ $svc.externalTrafficPolicy }}
  {{- end }}
  {{- if and (eq $svc.type "LoadBalancer") $svc.loadBalancerSourceRanges }}
  loadBalancerSourceRanges:
    {{- toYaml $svc.loadBalancerSourceRanges | nindent 4 }}
  {{- end }}
{{- end -}}

{{- define "arena.pdb" -}}
{{- $root := .root -}}
{{- $pdb := .values.podDisruptionBudget -}}
{{- $ctx := dict "root" $root "component" .component -}}
{{- if $pdb.enabled }}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "arena.componentName" $ctx }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "arena.componentLabels" $ctx | nindent 4 }}
spec:
  {{- if ne (toString $pdb.minAvailable) "" }}
  minAvailable: {{ $pdb.minAvailable }}
  {{- else }}
  maxUnavailable: {{ $pdb.maxUnavailable }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "arena.selectorLabels" $ctx | nindent 6 }}
{{- end }}
{{- end -}}


{{/* The metrics port of a role's Service (the ServiceMonitor scrapes it by name). */}}
{{- define "arena.metricsServicePort" -}}
- name: metrics
  port: {{ .Values.metrics.port }}
  targetPort: metrics
  protocol: TCP
  appProtocol: http
{{- end -}}
