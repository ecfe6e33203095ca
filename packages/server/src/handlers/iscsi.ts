import { invalidArgument } from "@csi-proxy/exec";
import type { AuthenticationType, TargetPortal } from "@csi-proxy/iscsi";
import type { HandlerContext, Message, ServiceHandlers } from "./context.js";
import { optionalText, text, uint } from "./context.js";

// Upstream dereferences a missing target_portal and crashes the whole server; here it is refused.
function portalOf(request: Message): TargetPortal {
  const portal = request.target_portal as Message | null | undefined;
  if (portal === null || portal === undefined) throw invalidArgument("target_portal is required.");
  const port = uint(portal, "target_port");
  // Port 0 means the default, 3260, as upstream.
  return {
    targetAddress: text(portal, "target_address"),
    ...(port === 0 ? {} : { targetPort: port }),
  };
}

const authTypes: readonly AuthenticationType[] = ["NONE", "ONE_WAY_CHAP", "MUTUAL_CHAP"];

function authTypeOf(request: Message): AuthenticationType {
  const value = request.auth_type;
  const found = authTypes.find((name) => name === value);
  if (found === undefined)
    throw invalidArgument(`invalid authentication type authType=${String(value)}`);
  return found;
}

/** iscsi v1alpha2 (`v1alpha2.Iscsi`). */
export function iscsiV1alpha2({ groups: { iscsi } }: HandlerContext): ServiceHandlers {
  const target = (request: Message) => ({
    targetPortal: portalOf(request),
    iqn: text(request, "iqn"),
  });
  return {
    async AddTargetPortal(request, options) {
      await iscsi.addTargetPortal({ targetPortal: portalOf(request) }, options);
      return {};
    },
    async DiscoverTargetPortal(request, options) {
      const { iqns } = await iscsi.discoverTargetPortal(
        { targetPortal: portalOf(request) },
        options,
      );
      return { iqns };
    },
    async RemoveTargetPortal(request, options) {
      await iscsi.removeTargetPortal({ targetPortal: portalOf(request) }, options);
      return {};
    },
    async ListTargetPortals(_request, options) {
      const { targetPortals } = await iscsi.listTargetPortals({}, options);
      return {
        target_portals: targetPortals.map((p) => ({
          target_address: p.targetAddress,
          target_port: p.targetPort,
        })),
      };
    },
    async ConnectTarget(request, options) {
      const chapUsername = optionalText(request, "chap_username");
      const chapSecret = optionalText(request, "chap_secret");
      await iscsi.connectTarget(
        {
          ...target(request),
          authType: authTypeOf(request),
          ...(chapUsername === undefined ? {} : { chapUsername }),
          ...(chapSecret === undefined ? {} : { chapSecret }),
        },
        options,
      );
      return {};
    },
    async DisconnectTarget(request, options) {
      await iscsi.disconnectTarget(target(request), options);
      return {};
    },
    async GetTargetDisks(request, options) {
      const { diskIds } = await iscsi.getTargetDisks(target(request), options);
      return { diskIDs: diskIds.map(String) };
    },
    async SetMutualChapSecret(request, options) {
      await iscsi.setMutualChapSecret(
        { mutualChapSecret: text(request, "MutualChapSecret") },
        options,
      );
      return {};
    },
  };
}

/** iscsi v1alpha1 (`v1alpha1.Iscsi`): v1alpha2 without SetMutualChapSecret. */
export function iscsiV1alpha1(context: HandlerContext): ServiceHandlers {
  const { SetMutualChapSecret: _v1alpha2Only, ...v1alpha1 } = iscsiV1alpha2(context);
  return v1alpha1;
}
