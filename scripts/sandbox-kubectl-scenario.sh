#!/usr/bin/env bash
# About 90 everyday kubectl operations against a fresh two-cluster kdeck sandbox, each checked
# against what a real cluster answers (exit status, and the text kubectl prints). Prints every
# failure and the pass rate. Needs kubectl on PATH and a built dist/ (npm run build).
#   scripts/sandbox-kubectl-scenario.sh            # starts and stops its own sandbox
set -u
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mktemp -d /tmp/kdeck-scenario-XXXXXX)"
export KUBECONFIG="$WORK/kubeconfig"
node "$ROOT/dist/bin/kdeck.js" sandbox --kubeconfig "$KUBECONFIG" >"$WORK/sandbox.log" 2>&1 &
SANDBOX=$!
cleanup() {
  kill "$SANDBOX" 2>/dev/null
  wait "$SANDBOX" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
for _ in $(seq 1 100); do grep -q 'Press Ctrl-C' "$WORK/sandbox.log" 2>/dev/null && break; sleep 0.2; done

PASS=0
FAIL=0
N="scn"
K="kubectl --request-timeout=20s"

# check NAME PATTERN COMMAND...: the command succeeds and its output matches PATTERN (grep -E; "" = any)
check() {
  local name="$1" pattern="$2"
  shift 2
  local out
  out="$(timeout 60 "$@" 2>&1)"
  local rc=$?
  if [ $rc -eq 0 ] && { [ -z "$pattern" ] || grep -qE -- "$pattern" <<<"$out"; }; then
    PASS=$((PASS + 1))
  else
    FAIL=$((FAIL + 1))
    printf 'FAIL %s (rc %s)\n  $ %s\n%s\n' "$name" "$rc" "$*" "$(head -5 <<<"$out" | sed 's/^/  | /')"
  fi
}
# refused NAME PATTERN COMMAND...: the command fails and its output matches PATTERN
refused() {
  local name="$1" pattern="$2"
  shift 2
  local out
  out="$(timeout 60 "$@" 2>&1)"
  local rc=$?
  if [ $rc -ne 0 ] && grep -qE -- "$pattern" <<<"$out"; then
    PASS=$((PASS + 1))
  else
    FAIL=$((FAIL + 1))
    printf 'FAIL %s (rc %s, expected a refusal)\n  $ %s\n%s\n' "$name" "$rc" "$*" "$(head -5 <<<"$out" | sed 's/^/  | /')"
  fi
}
# eventually NAME PATTERN COMMAND...: within 30 s the command's output matches PATTERN
eventually() {
  local name="$1" pattern="$2"
  shift 2
  local out=""
  for _ in $(seq 1 60); do
    out="$(timeout 20 "$@" 2>&1)"
    grep -qE -- "$pattern" <<<"$out" && { PASS=$((PASS + 1)); return; }
    sleep 0.5
  done
  FAIL=$((FAIL + 1))
  printf 'FAIL %s (never matched %s)\n  $ %s\n%s\n' "$name" "$pattern" "$*" "$(head -5 <<<"$out" | sed 's/^/  | /')"
}

# --- discovery and cluster
check "version" "Server Version: v1\." $K version
check "cluster-info" "is running at" $K cluster-info
check "api-versions has storage" "storage.k8s.io/v1" $K api-versions
check "api-resources has pvc" "persistentvolumeclaims" $K api-resources
check "api-resources namespaced=false" "nodes" $K api-resources --namespaced=false
check "get nodes" "Ready" $K get nodes
check "get nodes -o wide" "KERNEL-VERSION" $K get nodes -o wide
check "describe node" "Lease:" $K describe node a-node-1
check "get ns" "kube-system" $K get ns
check "contexts" "sandbox-b" $K config get-contexts
check "second cluster" "b-node-1" $K --context sandbox-b get nodes
refused "unknown resource" "doesn't have a resource type" $K get frobnicators

# --- namespaces, config, secrets
check "create ns" "created" $K create ns $N
check "create configmap" "created" $K -n $N create configmap app-config --from-literal=mode=prod --from-literal=level=3
check "get configmap jsonpath" "^prod$" $K -n $N get cm app-config -o jsonpath='{.data.mode}'
check "create secret" "created" $K -n $N create secret generic creds --from-literal=password=s3cret
check "secret is base64" "czNjcmV0" $K -n $N get secret creds -o jsonpath='{.data.password}'
check "describe secret hides values" "password:  6 bytes" $K -n $N describe secret creds
check "label configmap" "labeled" $K -n $N label cm app-config tier=backend
check "select by label" "app-config" $K -n $N get cm -l tier=backend
check "select by field" "app-config" $K -n $N get cm --field-selector metadata.name=app-config
check "annotate" "annotated" $K -n $N annotate cm app-config owner=sre
check "patch merge" "patched" $K -n $N patch cm app-config --type=merge -p '{"data":{"level":"4"}}'
check "patch json" "patched" $K -n $N patch cm app-config --type=json -p '[{"op":"replace","path":"/data/mode","value":"dev"}]'
check "patched value" "^dev$" $K -n $N get cm app-config -o jsonpath='{.data.mode}'
refused "create duplicate" "AlreadyExists|already exists" $K -n $N create configmap app-config
refused "big configmap" "Too long" bash -c "head -c 1500000 /dev/zero | tr '\\0' x > $WORK/big && $K -n $N create cm big --from-file=$WORK/big"

# --- workloads
cat >"$WORK/web.yaml" <<EOF
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: $N, labels: {app: web}}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports: [{containerPort: 80, name: http}]
        readinessProbe: {httpGet: {path: /, port: 80}, initialDelaySeconds: 1, periodSeconds: 1}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: $N}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: http}]
EOF
check "apply" "deployment.apps/web created" $K apply -f "$WORK/web.yaml"
check "rollout status" "successfully rolled out" $K -n $N rollout status deploy/web --timeout=60s
check "get deploy" "3/3" $K -n $N get deploy web
check "get pods wide" "a-node-" $K -n $N get pods -o wide
check "get all" "service/web" $K -n $N get all
check "describe deploy" "RollingUpdateStrategy" $K -n $N describe deploy web
check "describe svc" "Endpoints:" $K -n $N describe svc web
check "endpoints" ":80" $K -n $N get endpoints web
check "endpointslices" "IPv4" $K -n $N get endpointslices
check "wait ready" "condition met" $K -n $N wait --for=condition=Ready pod -l app=web --timeout=60s
check "diff unchanged" "" $K diff -f "$WORK/web.yaml"
sed 's/replicas: 3/replicas: 4/' "$WORK/web.yaml" >"$WORK/web4.yaml"
refused "diff changed" "replicas: 4" $K diff -f "$WORK/web4.yaml"
check "apply server-side" "serverside-applied" $K apply --server-side --force-conflicts -f "$WORK/web4.yaml"
check "scale" "scaled" $K -n $N scale deploy web --replicas=2
eventually "scaled down" "2/2" $K -n $N get deploy web
check "set image" "image updated" $K -n $N set image deploy/web nginx=nginx:1.28
check "annotate change-cause" "annotated" $K -n $N annotate deploy web kubernetes.io/change-cause="nginx 1.28"
check "rollout status 2" "successfully rolled out" $K -n $N rollout status deploy/web --timeout=60s
check "rollout history" "nginx 1.28" $K -n $N rollout history deploy/web
check "rollout undo" "rolled back" $K -n $N rollout undo deploy/web
check "rollout restart" "restarted" $K -n $N rollout restart deploy/web
check "rollout status 3" "successfully rolled out" $K -n $N rollout status deploy/web --timeout=60s
check "rollout pause" "paused" $K -n $N rollout pause deploy/web
check "rollout resume" "resumed" $K -n $N rollout resume deploy/web
check "autoscale" "autoscaled" $K -n $N autoscale deploy web --min=2 --max=5 --cpu-percent=70
check "get hpa" "cpu: <unknown>/70%" $K -n $N get hpa web
check "get rs" "web-" $K -n $N get rs
check "top-level events" "Scaled" $K -n $N get events
check "kubectl events" "ScalingReplicaSet" $K events -n $N
check "paging" "web-" $K -n $N get pods --chunk-size=1
check "sort-by" "web-" $K -n $N get pods --sort-by=.metadata.name
check "custom columns" "NAME" $K -n $N get pods -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName
check "watch" "web" timeout 3 bash -c "$K -n $N get deploy -w --request-timeout=2s; true"

# --- logs
POD="$($K -n $N get pods -l app=web -o jsonpath='{.items[0].metadata.name}')"
check "logs" "." $K -n $N logs "$POD"
check "logs timestamps" "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]+Z " $K -n $N logs "$POD" --timestamps
check "logs tail" "." $K -n $N logs "$POD" --tail=1
refused "logs previous none" "previous terminated container" $K -n $N logs "$POD" --previous
check "logs -f follows" "." bash -c "timeout 7 $K -n $N logs -f $POD --tail=0; [ \$? -eq 124 ]"
check "logs by label" "." $K -n $N logs -l app=web --tail=2
check "crashloop pod" "created" $K -n $N run crasher --image=busybox:crashloop --restart=Always
eventually "crashloop backoff" "CrashLoopBackOff|Error" $K -n $N get pod crasher
eventually "logs previous of crashloop" "." $K -n $N logs crasher --previous

# --- jobs and cronjobs
check "create job" "created" $K -n $N create job once --image=busybox -- echo hi
check "wait job" "condition met" $K -n $N wait --for=condition=complete job/once --timeout=60s
check "create cronjob" "created" $K -n $N create cronjob nightly --image=busybox --schedule="0 3 * * *" -- echo hi
check "job from cronjob" "created" $K -n $N create job manual --from=cronjob/nightly
check "get cronjob" "0 3 \* \* \*" $K -n $N get cronjob nightly

# --- statefulsets, daemonsets, storage
cat >"$WORK/db.yaml" <<EOF
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: $N}
spec:
  serviceName: db
  replicas: 2
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: postgres:16}]}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: $N}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: agent, image: fluentbit:3}]}
EOF
check "apply sts+ds" "statefulset.apps/db created" $K apply -f "$WORK/db.yaml"
check "sts rollout" "partitioned roll out complete|roll out complete" $K -n $N rollout status sts/db --timeout=60s
check "ds rollout" "successfully rolled out" $K -n $N rollout status ds/agent --timeout=60s
eventually "pvcs bound" "data-db-1 +Bound" $K -n $N get pvc
check "pv listed" "Bound" $K get pv
check "storageclass default" "(default)" $K get storageclass

# --- nodes
check "cordon" "cordoned" $K cordon a-node-3
check "cordon taint" "node.kubernetes.io/unschedulable" $K get node a-node-3 -o jsonpath='{.spec.taints}'
check "drain" "drained" $K drain a-node-3 --ignore-daemonsets --delete-emptydir-data --force --timeout=60s
check "uncordon" "uncordoned" $K uncordon a-node-3

# --- auth, tokens, RBAC
check "auth can-i" "^yes" $K auth can-i create deployments -n $N
check "auth can-i list" "\*\.\*" $K auth can-i --list -n $N
check "auth whoami" "Username" $K auth whoami
check "create sa" "created" $K -n $N create serviceaccount bot
check "create token" "^ey" $K -n $N create token bot
check "create role" "created" $K -n $N create role reader --verb=get,list --resource=pods
check "create rolebinding" "created" $K -n $N create rolebinding reader --role=reader --serviceaccount=$N:bot

# --- limits and quotas
check "create quota" "created" $K -n $N create quota q --hard=configmaps=4
eventually "quota usage" "configmaps: [0-9]+/4" $K -n $N get quota q
refused "quota refuses" "exceeded quota" bash -c "for i in 1 2 3 4; do $K -n $N create cm q\$i || exit 1; done"
check "limitrange" "created" bash -c "printf 'apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr, namespace: $N}\nspec:\n  limits:\n  - type: Container\n    default: {cpu: 250m}\n' | $K apply -f -"
check "priorityclass" "created" $K create priorityclass batch-low --value=100

# --- explain and CRDs
check "explain" "replicas" $K explain deployment.spec
check "explain field" "FIELD: *containers|containers" $K explain pod.spec.containers
cat >"$WORK/crd.yaml" <<EOF
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, shortNames: [wd]}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - {name: Size, type: integer, jsonPath: .spec.size}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size]
            properties:
              size: {type: integer, minimum: 1, maximum: 10}
              color: {type: string, enum: [red, blue]}
EOF
check "apply crd" "created" $K apply -f "$WORK/crd.yaml"
check "crd established" "condition met" $K wait --for=condition=Established crd/widgets.example.com --timeout=30s
check "create cr" "created" bash -c "printf 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1, namespace: $N}\nspec: {size: 3, color: red}\n' | $K apply -f -"
check "printer column" "SIZE" $K -n $N get widgets
refused "schema type" "Invalid value|must be of type integer|spec.size" bash -c "printf 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w2, namespace: $N}\nspec: {size: big}\n' | $K apply -f -"
refused "schema enum" "Unsupported value" bash -c "printf 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w3, namespace: $N}\nspec: {size: 2, color: green}\n' | $K apply -f -"
check "short name" "w1" $K -n $N get wd

# --- prune, garbage collection, deletion
mkdir -p "$WORK/prune"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: keep, namespace: %s, labels: {set: p}}\n' $N >"$WORK/prune/keep.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: drop, namespace: %s, labels: {set: p}}\n' $N >"$WORK/prune/drop.yaml"
$K -n $N delete quota q >/dev/null 2>&1
check "apply for prune" "created" $K apply -f "$WORK/prune"
rm "$WORK/prune/drop.yaml"
check "apply --prune" "configmap/drop pruned" $K apply --prune -l set=p -f "$WORK/prune"
check "delete deploy cascades" "deleted" $K -n $N delete deploy web
eventually "rs garbage collected" "No resources found" $K -n $N get rs -l app=web
check "delete ns" "deleted" $K delete ns $N --wait=true --timeout=60s
refused "ns gone" "NotFound" $K get ns $N

echo
TOTAL=$((PASS + FAIL))
echo "kubectl scenario: $PASS of $TOTAL passed ($((100 * PASS / TOTAL))%)"
