/**
 * The protobuf numbering of what `kubectl auth`, `create token`, `create role/rolebinding` and
 * `autoscale` send: authorization.k8s.io and authentication.k8s.io reviews, TokenRequest, RBAC
 * kinds and the autoscaling/v1 HorizontalPodAutoscaler. Field specs as in protobuf-schema.ts.
 */
import type { FieldSpec } from './protobuf-schema.js';

type Message = Readonly<Record<number, FieldSpec>>;

export const ACCESS_MESSAGES: Record<string, Message> = {
  SelfSubjectAccessReview: { 1: ['metadata', 'msg:ObjectMeta'], 2: ['spec', 'msg:SelfSubjectAccessReviewSpec'] },
  SelfSubjectAccessReviewSpec: {
    1: ['resourceAttributes', 'msg:ResourceAttributes'],
    2: ['nonResourceAttributes', 'msg:NonResourceAttributes'],
  },
  ResourceAttributes: {
    1: ['namespace', 'string'],
    2: ['verb', 'string'],
    3: ['group', 'string'],
    4: ['version', 'string'],
    5: ['resource', 'string'],
    6: ['subresource', 'string'],
    7: ['name', 'string'],
  },
  NonResourceAttributes: { 1: ['path', 'string'], 2: ['verb', 'string'] },
  SelfSubjectRulesReview: { 1: ['metadata', 'msg:ObjectMeta'], 2: ['spec', 'msg:SelfSubjectRulesReviewSpec'] },
  SelfSubjectRulesReviewSpec: { 1: ['namespace', 'string'] },
  SelfSubjectReview: { 1: ['metadata', 'msg:ObjectMeta'] },
  TokenRequest: { 1: ['metadata', 'msg:ObjectMeta'], 2: ['spec', 'msg:TokenRequestSpec'] },
  TokenRequestSpec: {
    1: ['audiences', 'string', 'r'],
    3: ['boundObjectRef', 'msg:BoundObjectReference'],
    4: ['expirationSeconds', 'int64', 'z'],
  },
  BoundObjectReference: {
    1: ['kind', 'string'],
    2: ['apiVersion', 'string'],
    3: ['name', 'string'],
    4: ['uid', 'string'],
  },
  Role: { 1: ['metadata', 'msg:ObjectMeta'], 2: ['rules', 'msg:PolicyRule', 'r'] },
  ClusterRole: {
    1: ['metadata', 'msg:ObjectMeta'],
    2: ['rules', 'msg:PolicyRule', 'r'],
    3: ['aggregationRule', 'msg:AggregationRule'],
  },
  AggregationRule: { 1: ['clusterRoleSelectors', 'msg:LabelSelector', 'r'] },
  PolicyRule: {
    1: ['verbs', 'string', 'r'],
    2: ['apiGroups', 'string', 'r'],
    3: ['resources', 'string', 'r'],
    4: ['resourceNames', 'string', 'r'],
    5: ['nonResourceURLs', 'string', 'r'],
  },
  RoleBinding: {
    1: ['metadata', 'msg:ObjectMeta'],
    2: ['subjects', 'msg:Subject', 'r'],
    3: ['roleRef', 'msg:RoleRef'],
  },
  ClusterRoleBinding: {
    1: ['metadata', 'msg:ObjectMeta'],
    2: ['subjects', 'msg:Subject', 'r'],
    3: ['roleRef', 'msg:RoleRef'],
  },
  Subject: { 1: ['kind', 'string'], 2: ['apiGroup', 'string'], 3: ['name', 'string'], 4: ['namespace', 'string'] },
  RoleRef: { 1: ['apiGroup', 'string'], 2: ['kind', 'string'], 3: ['name', 'string'] },
  HorizontalPodAutoscaler: {
    1: ['metadata', 'msg:ObjectMeta'],
    2: ['spec', 'msg:HorizontalPodAutoscalerSpecV1'],
  },
  HorizontalPodAutoscalerSpecV1: {
    1: ['scaleTargetRef', 'msg:CrossVersionObjectReference'],
    2: ['minReplicas', 'int32', 'z'],
    3: ['maxReplicas', 'int32'],
    4: ['targetCPUUtilizationPercentage', 'int32', 'z'],
  },
  CrossVersionObjectReference: { 1: ['kind', 'string'], 2: ['name', 'string'], 3: ['apiVersion', 'string'] },
  PriorityClass: {
    1: ['metadata', 'msg:ObjectMeta'],
    2: ['value', 'int32'],
    3: ['globalDefault', 'bool'],
    4: ['description', 'string'],
    5: ['preemptionPolicy', 'string', 'z'],
  },
  ResourceQuota: { 1: ['metadata', 'msg:ObjectMeta'], 2: ['spec', 'msg:ResourceQuotaSpec'] },
  ResourceQuotaSpec: { 1: ['hard', 'map:quantity'], 2: ['scopes', 'string', 'r'] },
};

/** The kinds above that are sent whole (their top-level message). */
export const ACCESS_KINDS = [
  'SelfSubjectAccessReview',
  'SelfSubjectRulesReview',
  'SelfSubjectReview',
  'TokenRequest',
  'Role',
  'ClusterRole',
  'RoleBinding',
  'ClusterRoleBinding',
  'HorizontalPodAutoscaler',
  'PriorityClass',
  'ResourceQuota',
];
