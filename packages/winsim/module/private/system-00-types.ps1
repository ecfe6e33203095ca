# .NET types the simulated services need: a ServiceController stand-in whose Start() really throws,
# ServiceCommandException (Windows-only in PowerShell), and one tiny cmdlet per real command class so
# written errors end in the real class name (",Microsoft.PowerShell.Commands.GetServiceCommand").
if (-not ('CsiProxy.WinSim.SimServiceController' -as [type])) {
    $serviceAssembly = [System.ServiceProcess.ServiceControllerStatus].Assembly.Location
    Import-WinSimType 'WinSim.SystemTypes' -References @($serviceAssembly, 'System.Management.Automation', 'netstandard', 'System.Collections', 'Microsoft.Win32.Primitives', 'System.ComponentModel.Primitives') -Source @'
using System;
using System.ComponentModel;
using System.Management.Automation;
using System.ServiceProcess;

namespace CsiProxy.WinSim {
    // Stands in for System.ServiceProcess.ServiceController: same members, answers from the simulator state.
    public sealed class SimServiceController {
        // Set by the module: name -> "" when the start was accepted, else "<win32 code>|<message>".
        public static Func<string, string> Starter;
        // Set by the module: name -> current status code (0 when the service is gone).
        public static Func<string, int> StatusReader;
        // Set by the module: (name, "dependents" | "required") -> controllers.
        public static Func<string, string, object[]> Related;

        private SimServiceController[] dependents;
        private SimServiceController[] required;

        public SimServiceController(string serviceName, string displayName, int status, int startType, int serviceType, bool canStop, bool canPauseAndContinue) {
            ServiceName = serviceName;
            DisplayName = displayName;
            Status = (ServiceControllerStatus)status;
            StartType = (ServiceStartMode)startType;
            ServiceType = (ServiceType)serviceType;
            CanStop = canStop;
            CanPauseAndContinue = canPauseAndContinue;
            MachineName = ".";
        }

        public bool CanPauseAndContinue { get; private set; }
        public bool CanShutdown { get { return false; } }
        public bool CanStop { get; private set; }
        public string DisplayName { get; private set; }
        public SimServiceController[] DependentServices { get { if (dependents == null) dependents = Load("dependents"); return dependents; } }
        public string MachineName { get; private set; }
        public string ServiceName { get; private set; }
        public SimServiceController[] ServicesDependedOn { get { if (required == null) required = Load("required"); return required; } }
        public object ServiceHandle { get { return null; } }
        public ServiceControllerStatus Status { get; private set; }
        public ServiceType ServiceType { get; private set; }
        public ServiceStartMode StartType { get; private set; }
        public object Site { get { return null; } }
        public object Container { get { return null; } }

        // Returns at once, as the real one does: the service moves through StartPending on its own.
        public void Start() {
            Func<string, string> starter = Starter;
            string result = starter == null ? "1060|The specified service does not exist as an installed service." : starter(ServiceName);
            if (string.IsNullOrEmpty(result)) return;
            int bar = result.IndexOf('|');
            int code = int.Parse(result.Substring(0, bar));
            throw new InvalidOperationException("Cannot start service " + ServiceName + " on computer '.'.", new Win32Exception(code, result.Substring(bar + 1)));
        }

        public void Refresh() {
            Func<string, int> reader = StatusReader;
            if (reader != null) { int s = reader(ServiceName); if (s > 0) Status = (ServiceControllerStatus)s; }
            dependents = null;
            required = null;
        }

        private SimServiceController[] Load(string kind) {
            Func<string, string, object[]> related = Related;
            object[] found = related == null ? null : related(ServiceName, kind);
            if (found == null) return new SimServiceController[0];
            SimServiceController[] result = new SimServiceController[found.Length];
            for (int i = 0; i < found.Length; i++) {
                object o = found[i];
                PSObject wrapped = o as PSObject;
                result[i] = (SimServiceController)(wrapped != null ? wrapped.BaseObject : o);
            }
            return result;
        }

        // What PowerShell shows when it flattens a controller to text (e.g. ConvertTo-Json past its depth).
        public override string ToString() { return ServiceName; }
    }
}

namespace Microsoft.PowerShell.Commands {
    // Windows-only in PowerShell; the service cmdlets' errors carry it.
    public class ServiceCommandException : SystemException {
        public ServiceCommandException(string message) : base(message) { }
        public ServiceCommandException(string message, Exception inner) : base(message, inner) { }
        public string ServiceName { get; set; }
    }

    // Each writes the given record, so PowerShell appends this class's full name to its error id.
    public sealed class GetServiceCommand : PSCmdlet {
        [Parameter(Mandatory = true)] public ErrorRecord Record { get; set; }
        protected override void ProcessRecord() { WriteError(Record); }
    }
    public sealed class StartServiceCommand : PSCmdlet {
        [Parameter(Mandatory = true)] public ErrorRecord Record { get; set; }
        protected override void ProcessRecord() { WriteError(Record); }
    }
    public sealed class StopServiceCommand : PSCmdlet {
        [Parameter(Mandatory = true)] public ErrorRecord Record { get; set; }
        protected override void ProcessRecord() { WriteError(Record); }
    }
}

namespace Microsoft.Management.Infrastructure.CimCmdlets {
    public sealed class GetCimInstanceCommand : PSCmdlet {
        [Parameter(Mandatory = true)] public ErrorRecord Record { get; set; }
        protected override void ProcessRecord() { WriteError(Record); }
    }
}
'@
}

# The error writers, named as the real cmdlets so CategoryInfo reads "[Get-Service]".
$script:WinSimErrorWriters = @{
    'Get-Service'     = [System.Management.Automation.CmdletInfo]::new('Get-Service', [Microsoft.PowerShell.Commands.GetServiceCommand])
    'Start-Service'   = [System.Management.Automation.CmdletInfo]::new('Start-Service', [Microsoft.PowerShell.Commands.StartServiceCommand])
    'Stop-Service'    = [System.Management.Automation.CmdletInfo]::new('Stop-Service', [Microsoft.PowerShell.Commands.StopServiceCommand])
    'Get-CimInstance' = [System.Management.Automation.CmdletInfo]::new('Get-CimInstance', [Microsoft.Management.Infrastructure.CimCmdlets.GetCimInstanceCommand])
}
