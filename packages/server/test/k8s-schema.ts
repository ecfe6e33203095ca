// Kubernetes API schema checks for the example manifests, two ways, both from kubernetes-models
// (generated from the Kubernetes OpenAPI spec): its runtime validators (types, required fields,
// formats), and its TypeScript interfaces, whose excess-property checks catch a misspelt or
// misplaced field the validators let through (as `kubectl apply --validate=strict` would).
import { fileURLToPath } from "node:url";
import { Namespace } from "kubernetes-models/v1/Namespace";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { ServiceAccount } from "kubernetes-models/v1/ServiceAccount";
import { DaemonSet } from "kubernetes-models/apps/v1/DaemonSet";
import { ClusterRole } from "kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole";
import { ClusterRoleBinding } from "kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding";
import ts from "typescript";

type Doc = Record<string, unknown>;

// apiVersion/kind → the model's class and where its interface is.
const models = {
  "v1/Namespace": [Namespace, "kubernetes-models/v1/Namespace", "INamespace"],
  "v1/ConfigMap": [ConfigMap, "kubernetes-models/v1/ConfigMap", "IConfigMap"],
  "v1/ServiceAccount": [ServiceAccount, "kubernetes-models/v1/ServiceAccount", "IServiceAccount"],
  "apps/v1/DaemonSet": [DaemonSet, "kubernetes-models/apps/v1/DaemonSet", "IDaemonSet"],
  "rbac.authorization.k8s.io/v1/ClusterRole": [
    ClusterRole,
    "kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole",
    "IClusterRole",
  ],
  "rbac.authorization.k8s.io/v1/ClusterRoleBinding": [
    ClusterRoleBinding,
    "kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding",
    "IClusterRoleBinding",
  ],
} as const;

function modelOf(doc: Doc) {
  const key = `${String(doc.apiVersion)}/${String(doc.kind)}` as keyof typeof models;
  const model = models[key] as (typeof models)[keyof typeof models] | undefined;
  if (model === undefined) throw new Error(`no schema model for ${key}`);
  return model;
}

/** What kubernetes-models' runtime validator says of each document (empty when valid). */
export function validatorErrors(docs: readonly Doc[]): string[] {
  return docs.flatMap((doc, i) => {
    const [Model] = modelOf(doc);
    try {
      new Model(doc as never).validate();
      return [];
    } catch (error) {
      return [`document ${String(i)} (${String(doc.kind)}): ${String(error)}`];
    }
  });
}

/** Each document as an object literal of its model's interface, type-checked: the errors. */
export function strictSchemaErrors(docs: readonly Doc[]): string[] {
  const file = fileURLToPath(new URL("./k8s-schema.generated.ts", import.meta.url));
  const lines = docs.flatMap((doc, i) => {
    const [, module, type] = modelOf(doc);
    return [
      `import type { ${type} as T${String(i)} } from "${module}";`,
      `export const d${String(i)}: T${String(i)} = ${JSON.stringify(doc)};`,
    ];
  });
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: [],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const source = ts.createSourceFile(file, lines.join("\n"), ts.ScriptTarget.ES2022, true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, ...rest) => (name === file ? source : getSourceFile(name, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}
