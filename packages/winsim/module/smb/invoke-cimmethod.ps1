# Invoke-CimMethod (CimCmdlets), modelled for the one call the SMB group makes: the static method
# MSFT_SmbGlobalMapping.Create in ROOT/Microsoft/Windows/SMB, which (unlike New-SmbGlobalMapping)
# takes no mandatory credential; upstream csi-proxy maps without one this way (pkg/wmi/smb.go).
# Parameters: PowerShell's InvokeCimMethodCommand.cs and learn.microsoft.com Invoke-CimMethod (5.1).

# The error writer named as the real class, so a written error's FQID ends in
# ",Microsoft.Management.Infrastructure.CimCmdlets.InvokeCimMethodCommand" (CimWriteError.cs).
if (-not ('Microsoft.Management.Infrastructure.CimCmdlets.InvokeCimMethodCommand' -as [type])) {
    Import-WinSimType 'WinSim.InvokeCimMethod' -References @('System.Management.Automation', 'netstandard') -Source @'
using System.Management.Automation;

namespace Microsoft.Management.Infrastructure.CimCmdlets {
    public sealed class InvokeCimMethodCommand : PSCmdlet {
        [Parameter(Mandatory = true)] public ErrorRecord Record { get; set; }
        protected override void ProcessRecord() { WriteError(Record); }
    }
}
'@
}
$script:WinSimInvokeCimMethodWriter = [System.Management.Automation.CmdletInfo]::new('Invoke-CimMethod', [Microsoft.Management.Infrastructure.CimCmdlets.InvokeCimMethodCommand])

# In-parameters of MSFT_SmbGlobalMapping.Create (MOF as microsoft/wmi server2019 MSFT_SmbGlobalMapping.go lists them).
$script:WinSimSmbCreateParameters = @('LocalPath', 'RemotePath', 'Credential', 'Persistent', 'RequireIntegrity', 'RequirePrivacy', 'FullAccess', 'DenyAccess', 'UseWriteThrough')
# Namespaces the simulated host has; another one is WBEM_E_INVALID_NAMESPACE.
$script:WinSimCimNamespaces = @('root/cimv2', 'root/microsoft/windows/storage', 'root/microsoft/windows/smb')

# The CIM Credential string: user name with '\' doubled and ':' as '\:', then ':' and the password
# (PowerShell cimConverter.cs, as upstream csi-proxy's escapeUserName builds it).
function ConvertFrom-WinSimCimCredential([string]$Text) {
    $user = [System.Text.StringBuilder]::new()
    for ($i = 0; $i -lt $Text.Length; $i++) {
        $c = $Text[$i]
        if ($c -eq '\' -and $i + 1 -lt $Text.Length) { $i++; [void]$user.Append($Text[$i]); continue }
        if ($c -eq ':') { return [pscustomobject]@{ User = $user.ToString(); Password = $Text.Substring($i + 1) } }
        [void]$user.Append($c)
    }
    return [pscustomobject]@{ User = $user.ToString(); Password = '' }
}

# The -Arguments as the call log's target (a dictionary would not log as one): Credential as its user only.
function Get-WinSimCimMethodTarget([System.Collections.IDictionary]$Arguments) {
    $target = [ordered]@{}
    if ($null -eq $Arguments) { return $target }
    foreach ($key in @($Arguments.Keys | Sort-Object)) {
        $value = $Arguments[$key]
        if ([string]$key -eq 'Credential') { $value = (ConvertFrom-WinSimCimCredential ([string]$value)).User }
        $target[[string]$key] = ConvertTo-WinSimLogValue $value
    }
    return $target
}

# WMI's answer to a namespace, class or method this host does not have, or to an unknown argument
# (WbemErrorEnum codes; NativeErrorCode as MMI maps them; method/argument messages inferred).
function Test-WinSimCimMethodCall([string]$Namespace, [string]$ClassName, [string]$MethodName, [System.Collections.IDictionary]$Arguments) {
    $ns = $Namespace.Replace('\', '/').Trim('/')
    if ($script:WinSimCimNamespaces -notcontains $ns.ToLowerInvariant()) { return (New-WinSimCimError 'Invalid namespace ' 'InvalidNamespace' 3 '0x8004100e' 'MetadataError' $Namespace) }
    if ($ns -ne 'root/microsoft/windows/smb' -or $ClassName -ne 'MSFT_SmbGlobalMapping') {
        return (New-WinSimCimError 'Invalid class ' 'InvalidClass' 5 '0x80041010' 'MetadataError' "${Namespace}:$ClassName")
    }
    if ($MethodName -ne 'Create') { return (New-WinSimCimError 'Invalid method ' 'MethodNotFound' 17 '0x8004102e' 'MetadataError' "${ClassName}.$MethodName") }
    foreach ($key in @($Arguments.Keys)) {
        if ($script:WinSimSmbCreateParameters -notcontains [string]$key) { return (New-WinSimCimError 'Invalid method Parameter(s) ' 'InvalidParameter' 4 '0x8004102f' 'InvalidArgument' [string]$key) }
    }
    return $null
}

# Create's in-parameters as Add-WinSimSmbMapping takes them; no Credential means the computer account.
function ConvertFrom-WinSimSmbCreateArguments([System.Collections.IDictionary]$Arguments) {
    $get = { param($name) foreach ($k in $Arguments.Keys) { if ([string]$k -eq $name) { return $Arguments[$k] } } }
    $request = @{
        RemotePath = [string](& $get 'RemotePath'); LocalPath = [string](& $get 'LocalPath')
        RequirePrivacy = [bool](& $get 'RequirePrivacy'); RequireIntegrity = [bool](& $get 'RequireIntegrity')
        UseWriteThrough = [bool](& $get 'UseWriteThrough'); Persistent = [bool](& $get 'Persistent')
        ComputerAccount = $true
    }
    $credential = & $get 'Credential'
    if (-not [string]::IsNullOrEmpty([string]$credential)) {
        $parsed = ConvertFrom-WinSimCimCredential ([string]$credential)
        $request.User = $parsed.User
        $request.Password = $parsed.Password
        $request.ComputerAccount = $false
    }
    return $request
}

# What Invoke-CimMethod writes for a static method: a PSCustomObject with the out-parameters and ReturnValue.
function New-WinSimCimMethodResult([string]$Class, [string]$Method, [System.Collections.IDictionary]$Out) {
    $result = [pscustomobject]@{}
    foreach ($key in $Out.Keys) { $result.PSObject.Properties.Add([psnoteproperty]::new($key, $Out[$key])) }
    $result.PSObject.Properties.Add([psnoteproperty]::new('PSComputerName', $null))
    $result.PSObject.TypeNames.Insert(0, 'Microsoft.Management.Infrastructure.CimMethodResult')
    $result.PSObject.TypeNames.Insert(0, "Microsoft.Management.Infrastructure.CimMethodResult#$Class#$Method")
    return $result
}

function Invoke-CimMethod {
    [CmdletBinding(DefaultParameterSetName = 'ClassNameComputerSet', SupportsShouldProcess)]
    [OutputType([System.Management.Automation.PSCustomObject])]
    param(
        [Parameter(ParameterSetName = 'ClassNameComputerSet', Mandatory, Position = 0, ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ClassNameSessionSet', Mandatory, Position = 0, ValueFromPipelineByPropertyName)]
        [Alias('Class')]
        [string]$ClassName,
        [Parameter(ParameterSetName = 'CimInstanceComputerSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'CimInstanceSessionSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ResourceUriComputerSet', Mandatory, ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ResourceUriSessionSet', Mandatory, ValueFromPipelineByPropertyName)]
        [uri]$ResourceUri,
        [Parameter(ParameterSetName = 'CimClassComputerSet', Mandatory, Position = 0, ValueFromPipeline)]
        [Parameter(ParameterSetName = 'CimClassSessionSet', Mandatory, Position = 0, ValueFromPipeline)]
        [Microsoft.Management.Infrastructure.CimClass]$CimClass,
        [Parameter(ParameterSetName = 'QueryComputerSet', Mandatory, ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'QuerySessionSet', Mandatory, ValueFromPipelineByPropertyName)]
        [string]$Query,
        [Parameter(ParameterSetName = 'QueryComputerSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'QuerySessionSet', ValueFromPipelineByPropertyName)]
        [string]$QueryDialect,
        [Parameter(ParameterSetName = 'CimInstanceComputerSet', Mandatory, Position = 0, ValueFromPipeline)]
        [Parameter(ParameterSetName = 'CimInstanceSessionSet', Mandatory, Position = 0, ValueFromPipeline)]
        [Alias('CimInstance')]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance')]
        [psobject]$InputObject,
        # The docs' pipeline binding (the source has ByPropertyName off in CimInstanceComputerSet).
        [Parameter(ParameterSetName = 'ClassNameComputerSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ResourceUriComputerSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'CimInstanceComputerSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'CimClassComputerSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'QueryComputerSet', ValueFromPipelineByPropertyName)]
        [Alias('CN', 'ServerName')]
        [string[]]$ComputerName,
        # The docs' pipeline binding (the source binds it ByPropertyName in ResourceUriSessionSet).
        [Parameter(ParameterSetName = 'ClassNameSessionSet', Mandatory, ValueFromPipeline)]
        [Parameter(ParameterSetName = 'ResourceUriSessionSet', Mandatory, ValueFromPipeline)]
        [Parameter(ParameterSetName = 'CimInstanceSessionSet', Mandatory, ValueFromPipeline)]
        [Parameter(ParameterSetName = 'CimClassSessionSet', Mandatory, ValueFromPipeline)]
        [Parameter(ParameterSetName = 'QuerySessionSet', Mandatory, ValueFromPipeline)]
        [Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [Parameter(Position = 1, ValueFromPipelineByPropertyName)]
        [System.Collections.IDictionary]$Arguments,
        [Parameter(Mandatory, Position = 2, ValueFromPipelineByPropertyName)]
        [Alias('Name')]
        [string]$MethodName,
        [Parameter(ParameterSetName = 'ClassNameComputerSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ClassNameSessionSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ResourceUriComputerSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ResourceUriSessionSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'QueryComputerSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'QuerySessionSet', ValueFromPipelineByPropertyName)]
        [string]$Namespace,
        [Alias('OT')]
        [uint32]$OperationTimeoutSec
    )
    process {
        # Only static calls by class name are modelled; anything else says so rather than pretend.
        if ($PSCmdlet.ParameterSetName -notlike 'ClassName*') {
            $exception = [System.NotImplementedException]::new("winsim models Invoke-CimMethod only as -ClassName MSFT_SmbGlobalMapping -MethodName Create, not the $($PSCmdlet.ParameterSetName) parameter set.")
            $PSCmdlet.ThrowTerminatingError([System.Management.Automation.ErrorRecord]::new($exception, 'WinSimNotModelled', 'NotImplemented', $null))
        }
        $cimArguments = if ($null -eq $Arguments) { @{} } else { $Arguments }
        $ns = if ($PSBoundParameters.ContainsKey('Namespace')) { $Namespace } else { 'root/cimv2' }
        $logged = [ordered]@{}
        foreach ($key in $PSBoundParameters.Keys) { if ($key -ne 'Arguments') { $logged[$key] = $PSBoundParameters[$key] } }
        Invoke-WinSimCommand $PSCmdlet $logged (Get-WinSimCimMethodTarget $cimArguments) {
            param($ctx)
            $problem = Test-WinSimCimMethodCall $ns $ClassName $MethodName $cimArguments
            if ($null -ne $problem) { $ctx.Items.Add($problem); return }
            if (-not $PSCmdlet.ShouldProcess("${ns}:$ClassName", $MethodName)) { return }
            $result = Add-WinSimSmbMapping (Get-WinSimSmb $ctx.State) (ConvertFrom-WinSimSmbCreateArguments $cimArguments)
            if ($result -is [System.Management.Automation.ErrorRecord]) { $ctx.Items.Add($result); return }
            $ctx.Changed = $true
            $out = [ordered]@{ CreatedMapping = (New-WinSimSmbMappingObject $result); ReturnValue = [uint32]0 }
            $ctx.Items.Add((New-WinSimCimMethodResult 'MSFT_SmbGlobalMapping' 'Create' $out))
        } -ErrorWriter $script:WinSimInvokeCimMethodWriter
    }
}
