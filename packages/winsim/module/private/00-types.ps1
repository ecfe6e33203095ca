# .NET types the simulated objects and errors need; added once per process (a module may be re-imported).
# Compiling C# costs seconds per process, so each source is compiled once into a DLL keyed by its hash.
function Import-WinSimType([string]$Name, [string]$Source, [string[]]$References) {
    $sha = [System.Security.Cryptography.SHA256]::HashData([System.Text.Encoding]::UTF8.GetBytes($Source + ($References -join ';') + $PSVersionTable.PSVersion))
    $hash = [Convert]::ToHexString($sha).Substring(0, 16).ToLowerInvariant()
    $dir = Join-Path ([System.IO.Path]::GetTempPath()) 'csi-winsim-types'
    $dll = Join-Path $dir "$Name-$hash.dll"
    if (-not [System.IO.File]::Exists($dll)) {
        [void][System.IO.Directory]::CreateDirectory($dir)
        $tmp = Join-Path $dir "$Name-$hash.$PID.tmp.dll"
        Add-Type -TypeDefinition $Source -ReferencedAssemblies $References -OutputAssembly $tmp -OutputType Library
        try { [System.IO.File]::Move($tmp, $dll, $false) } catch [System.IO.IOException] { Remove-Item -LiteralPath $tmp -ErrorAction SilentlyContinue }
    }
    [void][System.Reflection.Assembly]::LoadFrom($dll)
}

if (-not ('CsiProxy.WinSim.SimCimInstance' -as [type])) {
    $cimAssembly = [Microsoft.Management.Infrastructure.CimException].Assembly.Location
    Import-WinSimType 'WinSim.Types' -References @($cimAssembly, 'netstandard', 'System.Collections', 'Microsoft.Win32.Primitives') -Source @'
using System;
using System.Collections.Generic;
using System.ComponentModel;
using System.Reflection;

namespace CsiProxy.WinSim {
    // Stands in for CimProperty: scripts read psBase.CimInstanceProperties['X'].Value.
    public sealed class CimPropertyValue {
        public CimPropertyValue(string name, object value) { Name = name; Value = value; }
        public string Name { get; private set; }
        public object Value { get; private set; }
        public override string ToString() { return Name; }
    }

    // The base object of every simulated CIM instance, so psBase.CimInstanceProperties works.
    public sealed class SimCimInstance {
        private readonly string className;
        public SimCimInstance(string className) {
            this.className = className;
            CimInstanceProperties = new Dictionary<string, CimPropertyValue>(StringComparer.OrdinalIgnoreCase);
        }
        public Dictionary<string, CimPropertyValue> CimInstanceProperties { get; private set; }
        public void Set(string name, object value) { CimInstanceProperties[name] = new CimPropertyValue(name, value); }
        public override string ToString() { return className; }
    }

    // The real CimException cannot carry a status code without libmi, so this subclass adds it.
    // statusCode is what Windows reports there: CIM_Error.CIMStatusCode, an MI_Result (1 = Failed),
    // not the provider's own code, which belongs in messageId (e.g. "StorageWMI 42002").
    public class CimException : Microsoft.Management.Infrastructure.CimException {
        public CimException(string message, string nativeErrorCode, uint statusCode, string messageId) : base(message) {
            Microsoft.Management.Infrastructure.NativeErrorCode code;
            try { code = (Microsoft.Management.Infrastructure.NativeErrorCode)Enum.Parse(typeof(Microsoft.Management.Infrastructure.NativeErrorCode), nativeErrorCode ?? "Failed", true); } catch (ArgumentException) { code = Microsoft.Management.Infrastructure.NativeErrorCode.Failed; }
            NativeErrorCode = code;
            StatusCode = statusCode;
            MessageId = messageId;
        }
        public new Microsoft.Management.Infrastructure.NativeErrorCode NativeErrorCode { get; private set; }
        public new uint StatusCode { get; private set; }
        public new string MessageId { get; private set; }
    }
}

namespace Microsoft.PowerShell.Cmdletization.Cim {
    // Windows-only on the real host (CimCmdlets); the query-miss errors carry this type.
    public class CimJobException : SystemException {
        public CimJobException(string message) : base(message) { }
    }
}

namespace Microsoft.PowerShell.Cmdletization.GeneratedTypes.Disk {
    public enum PartitionStyle : ushort { Unknown = 0, MBR = 1, GPT = 2 }
}

namespace Microsoft.PowerShell.Cmdletization.GeneratedTypes.Partition {
    public enum MbrType : ushort { FAT12 = 1, FAT16 = 4, Extended = 5, Huge = 6, IFS = 7, FAT32 = 12 }
}
'@
}

if (-not ('CsiProxy.StorageIoctl' -as [type])) {
    Import-WinSimType 'CsiProxy.StorageIoctl' -References @('Microsoft.Win32.Primitives') -Source @'
using System;
using System.ComponentModel;

namespace CsiProxy {
    // Same surface as the Windows-only IOCTL class the disk scripts add; answers from the simulator state.
    public static class StorageIoctl {
        // Set by the simulator module: device path -> { uint number, string error, byte[] descriptor }, or null.
        public static Func<string, object[]> Resolver;

        private static object[] Resolve(string devicePath) {
            Func<string, object[]> resolver = Resolver;
            object[] found = resolver == null ? null : resolver(devicePath);
            if (found == null || found.Length < 3) throw new Win32Exception(2, "The system cannot find the file specified.");
            return found;
        }

        public static byte[] QueryDeviceIdDescriptor(string devicePath) {
            object[] found = Resolve(devicePath);
            string error = found[1] as string;
            if (!string.IsNullOrEmpty(error)) throw new Win32Exception(ErrorCode(error), error);
            return (byte[])found[2];
        }

        public static uint QueryDeviceNumber(string devicePath) {
            return Convert.ToUInt32(Resolve(devicePath)[0]);
        }

        private static int ErrorCode(string message) {
            switch (message) {
                case "Incorrect function.": return 1;
                case "Access is denied.": return 5;
                case "The request is not supported.": return 50;
                default: return 31;
            }
        }
    }
}
'@
}
