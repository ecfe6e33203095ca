import { ps } from "@csi-proxy/exec";

// Constant scripts only: every value reaches them as a param() parameter, never as text.
// They target Windows PowerShell 5.1 and use only real parameters (windows-cmdlets.md §5, §6).
// Status and StartType are .NET enums; [int] pins them to numbers in every PowerShell version.

/** The first Win32_BIOS instance's serial number, untrimmed; nothing when there is no instance. */
export const biosSerialNumberScript = ps("system.biosSerialNumber")`
$bios = @(Get-CimInstance -ClassName Win32_BIOS)
if ($bios.Count -eq 0) { return }
[pscustomobject]@{ serialNumber = $bios[0].SerialNumber }
`;

/**
 * One service (upstream: `Get-Service -Name $env:ServiceName | Select-Object DisplayName, Status,
 * StartType`). A missing service fails with NoServiceFoundForGivenName.
 */
export const getServiceScript = ps("system.getService")`
param([string]$Name)
$service = Get-Service -Name $Name
$startType = $null
# .NET before 4.6.1 has no StartType; [int]$null would read as 0, which is BOOT.
if ($null -ne $service.StartType) { $startType = [int]$service.StartType }
[pscustomobject]@{
    name        = [string]$service.ServiceName
    displayName = [string]$service.DisplayName
    status      = [int]$service.Status
    startType   = $startType
}
`;

/**
 * Every service that depends on the named one, directly or not: one edge per entry of each
 * service's DependentServices, walked breadth first from the named service.
 */
export const dependentsScript = ps("system.dependents")`
param([string]$Name)
$root = Get-Service -Name $Name
$seen = @{}
$queue = [System.Collections.Queue]::new()
$queue.Enqueue($root)
$edges = [System.Collections.ArrayList]::new()
while ($queue.Count -gt 0) {
    $current = $queue.Dequeue()
    $key = ([string]$current.ServiceName).ToLowerInvariant()
    if ($seen.ContainsKey($key)) { continue }
    $seen[$key] = $true
    foreach ($dependent in @($current.DependentServices)) {
        if ($null -eq $dependent) { continue }
        [void]$edges.Add([pscustomobject]@{
            parent = [string]$current.ServiceName
            name   = [string]$dependent.ServiceName
            status = [int]$dependent.Status
        })
        $queue.Enqueue($dependent)
    }
}
[pscustomobject]@{
    name       = [string]$root.ServiceName
    status     = [int]$root.Status
    dependents = $edges.ToArray()
}
`;

/**
 * Starts the service and waits for Running, polling every PollMs until TimeoutMs has passed.
 * Start-Service would wait without end while a start stays pending, so the script asks with
 * ServiceController.Start(), which returns at once, and does the waiting itself. A running
 * service is left alone; a pending one is waited for; a stop in progress is waited out first.
 * It stops without starting when the service is disabled or paused, and reports what it saw.
 * The deadline is checked only on a look taken after the request, so a slow request (a loaded
 * host) still reports the state the request led to, never the state before it.
 */
export const startServiceScript = ps("system.startService")`
param([string]$Name, [int]$TimeoutMs, [int]$PollMs)
$deadline = [DateTime]::UtcNow.AddMilliseconds($TimeoutMs)
$requested = $false
$timedOut = $false
while ($true) {
    $service = Get-Service -Name $Name
    $status = [int]$service.Status
    if ($status -eq 4) { break }
    if ($status -eq 7) { break }
    if ($status -eq 1) {
        if ($requested) { break }
        if ($null -ne $service.StartType -and [int]$service.StartType -eq 4) { break }
        $service.Start()
        $requested = $true
    } elseif ([DateTime]::UtcNow -ge $deadline) { $timedOut = $true; break }
    Start-Sleep -Milliseconds $PollMs
}
$startType = $null
if ($null -ne $service.StartType) { $startType = [int]$service.StartType }
[pscustomobject]@{ status = $status; startType = $startType; requested = $requested; timedOut = $timedOut }
`;

/**
 * Stops the service and waits for Stopped, polling every PollMs until TimeoutMs has passed.
 * Stop-Service -NoWait returns at once; without -Force it refuses (ServiceHasDependentServices)
 * while a dependent runs. A stopped service is left alone; a pending state is waited out first.
 * As in the start script, the deadline is checked only on a look taken after the request.
 */
export const stopServiceScript = ps("system.stopService")`
param([string]$Name, [int]$TimeoutMs, [int]$PollMs)
$deadline = [DateTime]::UtcNow.AddMilliseconds($TimeoutMs)
$requested = $false
$timedOut = $false
while ($true) {
    $service = Get-Service -Name $Name
    $status = [int]$service.Status
    if ($status -eq 1) { break }
    if (-not $requested -and ($status -eq 4 -or $status -eq 7)) {
        Stop-Service -Name $Name -NoWait
        $requested = $true
    } elseif ([DateTime]::UtcNow -ge $deadline) { $timedOut = $true; break }
    Start-Sleep -Milliseconds $PollMs
}
$startType = $null
if ($null -ne $service.StartType) { $startType = [int]$service.StartType }
[pscustomobject]@{ status = $status; startType = $startType; requested = $requested; timedOut = $timedOut }
`;
