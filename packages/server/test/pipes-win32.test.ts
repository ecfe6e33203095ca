// Checks the koffi declarations against the Windows SDK prototypes, written out below, on any
// x64 host: koffi parses the declarations here, so the first Windows run is not their first check.
import type * as KoffiModule from "koffi";
import { describe, expect, it } from "vitest";
import { koffi } from "./koffi.js";
import {
  WIN32_PROTOTYPES,
  defineWin32Types,
  loadWin32PipeApi,
  pipeModes,
} from "../src/pipes/win32.js";

/** From the SDK headers (fileapi.h, namedpipeapi.h, ioapiset.h, handleapi.h, winbase.h, synchapi.h, errhandlingapi.h, sddl.h). */
const SDK: Record<string, { dll: string; result: string; params: string[] }> = {
  CreateNamedPipeW: {
    dll: "kernel32.dll",
    result: "HANDLE",
    params: [
      "LPCWSTR",
      "DWORD",
      "DWORD",
      "DWORD",
      "DWORD",
      "DWORD",
      "DWORD",
      "LPSECURITY_ATTRIBUTES",
    ],
  },
  ConnectNamedPipe: { dll: "kernel32.dll", result: "BOOL", params: ["HANDLE", "LPOVERLAPPED"] },
  ReadFile: {
    dll: "kernel32.dll",
    result: "BOOL",
    params: ["HANDLE", "LPVOID", "DWORD", "LPDWORD", "LPOVERLAPPED"],
  },
  WriteFile: {
    dll: "kernel32.dll",
    result: "BOOL",
    params: ["HANDLE", "LPCVOID", "DWORD", "LPDWORD", "LPOVERLAPPED"],
  },
  GetOverlappedResult: {
    dll: "kernel32.dll",
    result: "BOOL",
    params: ["HANDLE", "LPOVERLAPPED", "LPDWORD", "BOOL"],
  },
  CancelIoEx: { dll: "kernel32.dll", result: "BOOL", params: ["HANDLE", "LPOVERLAPPED"] },
  DisconnectNamedPipe: { dll: "kernel32.dll", result: "BOOL", params: ["HANDLE"] },
  GetNamedPipeClientProcessId: {
    dll: "kernel32.dll",
    result: "BOOL",
    params: ["HANDLE", "PULONG"],
  },
  CloseHandle: { dll: "kernel32.dll", result: "BOOL", params: ["HANDLE"] },
  LocalFree: { dll: "kernel32.dll", result: "HLOCAL", params: ["HLOCAL"] },
  CreateEventW: {
    dll: "kernel32.dll",
    result: "HANDLE",
    params: ["LPSECURITY_ATTRIBUTES", "BOOL", "BOOL", "LPCWSTR"],
  },
  SetEvent: { dll: "kernel32.dll", result: "BOOL", params: ["HANDLE"] },
  WaitForMultipleObjects: {
    dll: "kernel32.dll",
    result: "DWORD",
    params: ["DWORD", "const HANDLE *", "BOOL", "DWORD"],
  },
  GetLastError: { dll: "kernel32.dll", result: "DWORD", params: [] },
  ConvertStringSecurityDescriptorToSecurityDescriptorW: {
    dll: "advapi32.dll",
    result: "BOOL",
    params: ["LPCWSTR", "DWORD", "PSECURITY_DESCRIPTOR *", "PULONG"],
  },
};

/** How each SDK type is passed on x64: its size and whether it is 32-bit signed/unsigned or a pointer-sized word. */
const ABI: Record<string, string> = {
  // HANDLE is void *; the binding passes it as intptr_t, the same 64-bit word on x64.
  HANDLE: "word64",
  HLOCAL: "pointer",
  DWORD: "uint32",
  BOOL: "int32",
  LPCWSTR: "wstring",
  LPSECURITY_ATTRIBUTES: "pointer",
  LPOVERLAPPED: "pointer",
  LPVOID: "pointer",
  LPCVOID: "pointer",
  LPDWORD: "pointer",
  PULONG: "pointer",
  "PSECURITY_DESCRIPTOR *": "pointer",
  "const HANDLE *": "pointer",
};

/** The parameters koffi writes back: the ones the binding reads after the call. */
const OUTPUTS: Record<string, number[]> = {
  GetOverlappedResult: [2],
  GetNamedPipeClientProcessId: [1],
  ConvertStringSecurityDescriptorToSecurityDescriptorW: [2],
};

interface Argument {
  type: KoffiModule.TypeObject;
  direction: string;
}

function abiOf(type: KoffiModule.TypeObject): string {
  switch (type.primitive) {
    case "String16":
      return "wstring";
    case "Pointer":
      // koffi may turn `const char16_t *` into a pointer when it is an input; same ABI either way.
      return type.ref?.primitive === "UInt16" || type.ref?.primitive === "Int16"
        ? "wstring"
        : "pointer";
    case "Int64":
    case "UInt64":
      return "word64";
    case "Int32":
      return "int32";
    case "UInt32":
      return "uint32";
    default:
      return `${type.primitive}/${type.size}`;
  }
}

const x64 = process.arch === "x64" || process.arch === "arm64";

describe("Win32 prototype table", () => {
  it("declares exactly the SDK functions, each from its DLL, with the SDK's name and arity", () => {
    expect(Object.keys(WIN32_PROTOTYPES).sort()).toEqual(Object.keys(SDK).sort());
    for (const [name, { dll, decl }] of Object.entries(WIN32_PROTOTYPES)) {
      const sdk = SDK[name];
      expect(dll, name).toBe(sdk?.dll);
      const match = /^(.+?)\s+__stdcall\s+(\w+)\((.*)\)$/.exec(decl);
      expect(match?.[2], decl).toBe(name);
      const params = match?.[3] === "" ? [] : (match?.[3] ?? "").split(",");
      expect(params.length, name).toBe(sdk?.params.length);
    }
  });

  it.skipIf(koffi === undefined || !x64)(
    "passes every parameter and result as the SDK type is passed on x64",
    () => {
      if (koffi === undefined) return;
      defineWin32Types(koffi);
      defineWin32Types(koffi);
      for (const [name, { decl }] of Object.entries(WIN32_PROTOTYPES)) {
        const proto = koffi.proto(decl).proto;
        const sdk = SDK[name];
        expect(proto?.name).toBe(name);
        // koffi describes each argument as { type, direction } (its typings say TypeObject).
        const args = (proto?.arguments ?? []) as unknown as Argument[];
        expect(
          args.map((arg) => abiOf(arg.type)),
          name,
        ).toEqual(sdk?.params.map((p) => ABI[p]));
        // Only the out-pointers we read back are _Out_; the rest stay inputs.
        const outputs = args.flatMap((arg, index) => (arg.direction === "Input" ? [] : [index]));
        expect(outputs, name).toEqual(OUTPUTS[name] ?? []);
        if (name === "WaitForMultipleObjects") expect(args[1]?.type.ref?.size).toBe(8);
        const result = ABI[sdk?.result ?? ""];
        expect(abiOf(proto?.result as KoffiModule.TypeObject), name).toBe(result);
      }
    },
  );

  it.skipIf(koffi === undefined || !x64)("lays out the structs as the x64 SDK does", () => {
    if (koffi === undefined) return;
    defineWin32Types(koffi);
    expect(koffi.sizeof("SECURITY_ATTRIBUTES")).toBe(24);
    expect(koffi.offsetof("SECURITY_ATTRIBUTES", "lpSecurityDescriptor")).toBe(8);
    expect(koffi.offsetof("SECURITY_ATTRIBUTES", "bInheritHandle")).toBe(16);
    expect(koffi.sizeof("OVERLAPPED")).toBe(32);
    expect(koffi.offsetof("OVERLAPPED", "Offset")).toBe(16);
    expect(koffi.offsetof("OVERLAPPED", "hEvent")).toBe(24);
  });

  it("opens instances duplex, overlapped, byte mode, local clients only; the first exclusively", () => {
    // PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED (| FILE_FLAG_FIRST_PIPE_INSTANCE)
    expect(pipeModes(true)).toEqual({ openMode: 0x40080003, pipeMode: 0x8 });
    // PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS
    expect(pipeModes(false)).toEqual({ openMode: 0x40000003, pipeMode: 0x8 });
  });

  it.skipIf(process.platform === "win32")("is UNSUPPORTED off Windows", () => {
    expect(() => loadWin32PipeApi()).toThrow(expect.objectContaining({ code: "UNSUPPORTED" }));
  });
});
