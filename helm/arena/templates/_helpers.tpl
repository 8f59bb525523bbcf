{{/*
Names, labels and shared values of the arena chart. Kubernetes names are limited to 63
characters (DNS labels), hence the truncation everywhere a name is built.
*/}}

{{- define "arena.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
The release's base name. A release already named after the chart ("arena") is not repeated
("arena-table-referee", not "arena-arena-table-referee").
*/}}
{{- define "arena.fullname" -}}
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

{{/* The name of one role's objects: (dict "root" $ "component" "table-referee"). */}}
{{- define "arena.componentName" -}}
{{- printf "%s-%s" (include "arena.fullname" .root) .component | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "arena.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels every object carries (app.kubernetes.io conventions). */}}
{{- define "arena.labels" -}}
helm.sh/chart: {{ include "arena.chart" . }}
app.kubernetes.io/name: {{ include "arena.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ (include "arena.imageTag" .) | trunc 63 | trimSuffix "-" | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: arena
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Labels of one role's objects: (dict "root" $ "component" "bot-host"). */}}
{{- define "arena.componentLabels" -}}
{{ include "arena.labels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/*
Selector labels: only labels that never change over the release's life, because a Deployment's
selector is immutable.
*/}}
{{- define "arena.selectorLabels" -}}
app.kubernetes.io/name: {{ include "arena.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "arena.imageTag" -}}
{{- default .Chart.AppVersion .Values.image.tag -}}
{{- end -}}

{{/* The image reference; a digest, when given, pins it regardless of the tag. */}}
{{- define "arena.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (include "arena.imageTag" .) -}}
{{- end -}}
{{- end -}}

{{- define "arena.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "arena.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The Secret and key holding the Redis URL. */}}
{{- define "arena.redisSecretName" -}}
{{- if .Values.redis.existingSecret -}}
{{- .Values.redis.existingSecret -}}
{{- else -}}
{{- printf "%s-redis" (include "arena.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "arena.redisSecretKey" -}}
{{- if .Values.redis.existingSecret -}}
{{- .Values.redis.existingSecretKey -}}
{{- else -}}
url
{{- end -}}
{{- end -}}

{{/* The Secret holding the cluster token. */}}
{{- define "arena.clusterTokenSecret" -}}
{{- default (printf "%s-cluster-token" (include "arena.fullname" .)) .Values.auth.clusterToken.existingSecret -}}
{{- end -}}

{{/* The Secret holding the bootstrap operator token. */}}
{{- define "arena.operatorTokenSecret" -}}
{{- default (printf "%s-operator-token" (include "arena.fullname" .)) .Values.auth.operatorToken.existingSecret -}}
{{- end -}}

{{/* host:port to bind inside the pod: (dict "root" $ "port" 50051). */}}
{{- define "arena.listen" -}}
{{- printf "%s:%v" .root.Values.listenHost .port -}}
{{- end -}}

{{/* The in-cluster address of a role's Service: (dict "root" $ "component" "bot-host" "port" 50052). */}}
{{- define "arena.serviceAddress" -}}
{{- printf "http://%s.%s.svc:%v" (include "arena.componentName" .) .root.Release.Namespace .port -}}
{{- end -}}

{{/* The bot-host addresses referees fall back on (ARENA_BOT_HOSTS). */}}
{{- define "arena.refereeBotHosts" -}}
{{- if .Values.referee.botHosts -}}
{{- join "," .Values.referee.botHosts -}}
{{- else if .Values.botHost.enabled -}}
{{- include "arena.serviceAddress" (dict "root" . "component" "bot-host-seats" "port" .Values.botHost.seatPort) -}}
{{- end -}}
{{- end -}}

{{/*
What bot-host writes to presence: its own pod, so a referee reaches the very pod a remote bot is
connected to even with several replicas behind the Service. IPv6 pod IPs need brackets in a URL.
*/}}
{{- define "arena.botHostAdvertise" -}}
{{- if .Values.botHost.advertise -}}
{{- .Values.botHost.advertise -}}
{{- else if contains ":" .Values.listenHost -}}
{{- printf "http://[$(POD_IP)]:%v" .Values.botHost.seatPort -}}
{{- else -}}
{{- printf "http://$(POD_IP):%v" .Values.botHost.seatPort -}}
{{- end -}}
{{- end -}}

{{/* OTEL_RESOURCE_ATTRIBUTES: where a span came from, plus the user's own attributes. */}}
{{- define "arena.otelResourceAttributes" -}}
{{- $attrs := list "k8s.namespace.name=$(POD_NAMESPACE)" "k8s.pod.name=$(POD_NAME)" "service.instance.id=$(POD_NAME)" -}}
{{- range $k, $v := .Values.otel.resourceAttributes -}}
{{- $attrs = append $attrs (printf "%s=%v" $k $v) -}}
{{- end -}}
{{- join "," $attrs -}}
{{- end -}}

{{/*
Settings that would otherwise fail only at run time, or silently misbehave, fail the install here.
*/}}
{{- define "arena.validate" -}}
{{- if and (not .Values.redis.url) (not .Values.redis.existingSecret) -}}
{{- fail "redis.url (or redis.existingSecret) is required: arena's roles share their state through Redis, e.g. --set redis.url=redis://redis-master.redis:6379" -}}
{{- end -}}
{{- if and .Values.botHost.enabled .Values.botHost.tls.enabled (not .Values.botHost.tls.existingSecret) -}}
{{- fail "botHost.tls.enabled needs botHost.tls.existingSecret: a Secret of type kubernetes.io/tls (tls.crt, tls.key) for the bot port" -}}
{{- end -}}
{{- if and .Values.botHost.enabled (eq (int .Values.botHost.seatPort) (int .Values.botHost.port)) -}}
{{- fail "botHost.seatPort must differ from botHost.port" -}}
{{- end -}}
{{- if and .Values.referee.autoscaling.enabled .Values.referee.keda.enabled -}}
{{- fail "referee.autoscaling.enabled and referee.keda.enabled exclude each other: KEDA makes the referees' HPA itself (its ScaledObject scales on CPU too, referee.keda.cpuUtilization)" -}}
{{- end -}}
{{- if and .Values.referee.keda.enabled (not .Values.referee.keda.serverAddress) -}}
{{- fail "referee.keda.enabled needs referee.keda.serverAddress: the Prometheus that scrapes the roles, e.g. http://prometheus-operated.monitoring:9090" -}}
{{- end -}}
{{- if and (or .Values.referee.keda.enabled .Values.metrics.serviceMonitor.enabled .Values.metrics.prometheusRule.enabled) (not .Values.metrics.enabled) -}}
{{- fail "referee.keda, metrics.serviceMonitor and metrics.prometheusRule read the roles' metrics: they need metrics.enabled" -}}
{{- end -}}
{{- if and .Values.otel.enabled (not .Values.otel.endpoint) -}}
{{- fail "otel.enabled needs otel.endpoint, e.g. http://otel-collector.observability:4317" -}}
{{- end -}}
{{- $preStop := int .Values.preStopSleepSeconds -}}
{{- $grace := int .Values.referee.terminationGracePeriodSeconds -}}
{{- if le (mul $grace 1000) (add (int .Values.referee.shutdownGraceMs) (mul $preStop 1000)) -}}
{{- fail (printf "referee.terminationGracePeriodSeconds (%d s) must exceed preStopSleepSeconds plus referee.shutdownGraceMs (%d s + %d ms), or Kubernetes kills referees before their tables finish" $grace $preStop (int .Values.referee.shutdownGraceMs)) -}}
{{- end -}}
{{- range $key := list "referee" "botHost" "dealLibrary" "matchmaker" -}}
{{- $pdb := (index $.Values $key).podDisruptionBudget -}}
{{- if and $pdb.enabled (eq (toString $pdb.minAvailable) "") (eq (toString $pdb.maxUnavailable) "") -}}
{{- fail (printf "%s.podDisruptionBudget needs minAvailable or maxUnavailable" $key) -}}
{{- end -}}
{{- if and $pdb.enabled (ne (toString $pdb.minAvailable) "") (ne (toString $pdb.maxUnavailable) "") -}}
{{- fail (printf "%s.podDisruptionBudget: set minAvailable or maxUnavailable, not both" $key) -}}
{{- end -}}
{{- end -}}
{{- end -}}
