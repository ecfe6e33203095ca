import { ps } from "@csi-proxy/exec";

/**
 * Path, serial number, device number and page-83 identifier of every disk, in one call.
 *
 * Two C# classes are added once per process (design: docs/design/winsim.md, "page 83"):
 * `CsiProxy.StorageIoctl` issues the IOCTLs upstream used (IOCTL_STORAGE_GET_DEVICE_NUMBER,
 * IOCTL_STORAGE_QUERY_PROPERTY with StorageDeviceIdProperty) and `CsiProxy.DeviceIdDescriptor`
 * applies upstream's page-83 rule to the descriptor bytes. Both compile as C# 5 (Windows
 * PowerShell 5.1's Add-Type). A disk whose device cannot be read gets an `error` entry instead of
 * failing the whole list.
 */
export const listDiskIdsScript = ps("disk.listIds")`
if (-not ('CsiProxy.DeviceIdDescriptor' -as [type])) {
    Add-Type -TypeDefinition @'
using System;
using System.Text;

namespace CsiProxy
{
    public static class DeviceIdDescriptor
    {
        // STORAGE_DEVICE_ID_DESCRIPTOR: Version, Size, NumberOfIdentifiers (UInt32 each), identifiers.
        private const int HeaderSize = 12;
        // STORAGE_IDENTIFIER: CodeSet, Type (UInt32), IdentifierSize, NextOffset (UInt16), Association (UInt32).
        private const int IdentifierHeaderSize = 16;

        // The first identifier associated with the device (0) in code set binary (1) or ASCII (2);
        // its Type is not checked. ASCII as is, binary as lowercase hex, none: "".
        public static string Page83(byte[] descriptor)
        {
            if (descriptor == null || descriptor.Length < HeaderSize) return "";
            int limit = descriptor.Length;
            uint declared = BitConverter.ToUInt32(descriptor, 4);
            if (declared >= HeaderSize && declared < limit) limit = (int)declared;
            uint count = BitConverter.ToUInt32(descriptor, 8);
            int offset = HeaderSize;
            for (uint i = 0; i < count; i++)
            {
                // A truncated identifier ends the walk: bytes that are not there cannot be trusted.
                if (offset + IdentifierHeaderSize > limit) break;
                uint codeSet = BitConverter.ToUInt32(descriptor, offset);
                int size = BitConverter.ToUInt16(descriptor, offset + 8);
                int next = BitConverter.ToUInt16(descriptor, offset + 10);
                uint association = BitConverter.ToUInt32(descriptor, offset + 12);
                int start = offset + IdentifierHeaderSize;
                if (start + size > limit) break;
                if (association == 0 && (codeSet == 1 || codeSet == 2))
                {
                    if (codeSet == 2) return Encoding.ASCII.GetString(descriptor, start, size);
                    StringBuilder hex = new StringBuilder(size * 2);
                    for (int b = start; b < start + size; b++) hex.Append(descriptor[b].ToString("x2"));
                    return hex.ToString();
                }
                if (next == 0) break;
                offset += next;
            }
            return "";
        }
    }
}
'@
}
if (-not ('CsiProxy.StorageIoctl' -as [type])) {
    Add-Type -TypeDefinition @'
using System;
using System.ComponentModel;
using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace CsiProxy
{
    public static class StorageIoctl
    {
        private const uint GenericRead = 0x80000000;
        private const uint FileShareReadWrite = 0x00000003;
        private const uint OpenExisting = 3;
        private const uint IoctlStorageQueryProperty = 0x002D1400;
        private const uint IoctlStorageGetDeviceNumber = 0x002D1080;
        private const int StorageDeviceIdProperty = 2;
        private const int PropertyStandardQuery = 0;
        private const int BufferSize = 4096;
        private const int ErrorBadLength = 24;

        [DllImport("kernel32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
        private static extern SafeFileHandle CreateFileW(string fileName, uint desiredAccess, uint shareMode,
            IntPtr securityAttributes, uint creationDisposition, uint flagsAndAttributes, IntPtr templateFile);

        [DllImport("kernel32.dll", SetLastError = true)]
        [return: MarshalAs(UnmanagedType.Bool)]
        private static extern bool DeviceIoControl(SafeFileHandle device, uint ioControlCode, byte[] inBuffer,
            int inBufferSize, byte[] outBuffer, int outBufferSize, out int bytesReturned, IntPtr overlapped);

        private static byte[] Control(string devicePath, uint code, byte[] input)
        {
            // Read access and shared read/write, as upstream opened the disk (O_RDONLY).
            using (SafeFileHandle handle = CreateFileW(devicePath, GenericRead, FileShareReadWrite, IntPtr.Zero,
                OpenExisting, 0, IntPtr.Zero))
            {
                if (handle.IsInvalid) throw new Win32Exception(Marshal.GetLastWin32Error());
                byte[] output = new byte[BufferSize];
                int returned;
                int inputLength = input == null ? 0 : input.Length;
                if (!DeviceIoControl(handle, code, input, inputLength, output, output.Length, out returned, IntPtr.Zero))
                    throw new Win32Exception(Marshal.GetLastWin32Error());
                byte[] result = new byte[returned];
                Array.Copy(output, result, returned);
                return result;
            }
        }

        // The raw STORAGE_DEVICE_ID_DESCRIPTOR of the device (SCSI VPD page 0x83).
        public static byte[] QueryDeviceIdDescriptor(string devicePath)
        {
            // STORAGE_PROPERTY_QUERY: PropertyId, QueryType, AdditionalParameters[1], padded to 12 bytes.
            byte[] query = new byte[12];
            BitConverter.GetBytes(StorageDeviceIdProperty).CopyTo(query, 0);
            BitConverter.GetBytes(PropertyStandardQuery).CopyTo(query, 4);
            return Control(devicePath, IoctlStorageQueryProperty, query);
        }

        // STORAGE_DEVICE_NUMBER.DeviceNumber (after DeviceType) of the device.
        public static uint QueryDeviceNumber(string devicePath)
        {
            byte[] number = Control(devicePath, IoctlStorageGetDeviceNumber, null);
            if (number.Length < 8) throw new Win32Exception(ErrorBadLength);
            return BitConverter.ToUInt32(number, 4);
        }
    }
}
'@
}
,@(foreach ($disk in @(Get-Disk)) {
    $entry = [ordered]@{
        number       = $disk.Number
        path         = $disk.Path
        serialNumber = $disk.SerialNumber
        isBoot       = [bool]$disk.IsBoot
        isSystem     = [bool]$disk.IsSystem
        page83       = $null
        error        = $null
    }
    try {
        # Upstream keys the map by the device's own number, not Get-Disk's.
        $entry.number = [CsiProxy.StorageIoctl]::QueryDeviceNumber($disk.Path)
        $descriptor = [CsiProxy.StorageIoctl]::QueryDeviceIdDescriptor($disk.Path)
        $entry.page83 = [CsiProxy.DeviceIdDescriptor]::Page83($descriptor)
    } catch {
        $failure = $_.Exception
        while ($null -ne $failure.InnerException) { $failure = $failure.InnerException }
        $code = $null
        if ($failure -is [System.ComponentModel.Win32Exception]) { $code = $failure.NativeErrorCode }
        $entry.error = [pscustomobject]@{ message = $failure.Message; win32Error = $code }
    }
    [pscustomobject]$entry
})
`;
