package main

import (
	"context"

	diskv1 "csiproxytest/api/disk/v1"
	diskv1alpha1 "csiproxytest/api/disk/v1alpha1"
	diskv1beta1 "csiproxytest/api/disk/v1beta1"
	diskv1beta2 "csiproxytest/api/disk/v1beta2"
	diskv1beta3 "csiproxytest/api/disk/v1beta3"
	fsv1 "csiproxytest/api/filesystem/v1"
	fsv1alpha1 "csiproxytest/api/filesystem/v1alpha1"
	fsv1beta1 "csiproxytest/api/filesystem/v1beta1"
	fsv1beta2 "csiproxytest/api/filesystem/v1beta2"
	fsv2alpha1 "csiproxytest/api/filesystem/v2alpha1"
	iscsiv1alpha1 "csiproxytest/api/iscsi/v1alpha1"
	iscsiv1alpha2 "csiproxytest/api/iscsi/v1alpha2"
	smbv1 "csiproxytest/api/smb/v1"
	smbv1alpha1 "csiproxytest/api/smb/v1alpha1"
	smbv1beta1 "csiproxytest/api/smb/v1beta1"
	smbv1beta2 "csiproxytest/api/smb/v1beta2"
	systemv1alpha1 "csiproxytest/api/system/v1alpha1"
	volumev1 "csiproxytest/api/volume/v1"
	volumev1alpha1 "csiproxytest/api/volume/v1alpha1"
	volumev1beta1 "csiproxytest/api/volume/v1beta1"
	volumev1beta2 "csiproxytest/api/volume/v1beta2"
	volumev1beta3 "csiproxytest/api/volume/v1beta3"
	volumev2alpha1 "csiproxytest/api/volume/v2alpha1"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

const kubelet = `C:\var\lib\kubelet`

// The disk the simulated demo node's volumes are on, and a share it has no mapping of.
const (
	diskNumber = 4
	noShare    = `\\server\no-such-share`
)

// oneCall is a read (or a harmless miss) on one group-version, through its generated client.
type oneCall struct {
	Method  string
	Request proto.Message
	Invoke  func(ctx context.Context, cc *grpc.ClientConn, request proto.Message) (proto.Message, error)
}

// calls holds one call per group-version upstream serves, keyed as the server keys endpoints.
var calls = map[string]oneCall{
	"filesystem-v1alpha1": {"PathExists", &fsv1alpha1.PathExistsRequest{Path: kubelet}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return fsv1alpha1.NewFilesystemClient(cc).PathExists(ctx, r.(*fsv1alpha1.PathExistsRequest))
	}},
	"filesystem-v1beta1": {"PathExists", &fsv1beta1.PathExistsRequest{Path: kubelet}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return fsv1beta1.NewFilesystemClient(cc).PathExists(ctx, r.(*fsv1beta1.PathExistsRequest))
	}},
	"filesystem-v1beta2": {"PathExists", &fsv1beta2.PathExistsRequest{Path: kubelet}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return fsv1beta2.NewFilesystemClient(cc).PathExists(ctx, r.(*fsv1beta2.PathExistsRequest))
	}},
	"filesystem-v1": {"PathExists", &fsv1.PathExistsRequest{Path: kubelet}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return fsv1.NewFilesystemClient(cc).PathExists(ctx, r.(*fsv1.PathExistsRequest))
	}},
	"filesystem-v2alpha1": {"PathExists", &fsv2alpha1.PathExistsRequest{Path: kubelet}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return fsv2alpha1.NewFilesystemClient(cc).PathExists(ctx, r.(*fsv2alpha1.PathExistsRequest))
	}},
	"disk-v1alpha1": {"ListDiskLocations", &diskv1alpha1.ListDiskLocationsRequest{}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return diskv1alpha1.NewDiskClient(cc).ListDiskLocations(ctx, r.(*diskv1alpha1.ListDiskLocationsRequest))
	}},
	"disk-v1beta1": {"ListDiskLocations", &diskv1beta1.ListDiskLocationsRequest{}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return diskv1beta1.NewDiskClient(cc).ListDiskLocations(ctx, r.(*diskv1beta1.ListDiskLocationsRequest))
	}},
	"disk-v1beta2": {"ListDiskLocations", &diskv1beta2.ListDiskLocationsRequest{}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return diskv1beta2.NewDiskClient(cc).ListDiskLocations(ctx, r.(*diskv1beta2.ListDiskLocationsRequest))
	}},
	"disk-v1beta3": {"ListDiskLocations", &diskv1beta3.ListDiskLocationsRequest{}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return diskv1beta3.NewDiskClient(cc).ListDiskLocations(ctx, r.(*diskv1beta3.ListDiskLocationsRequest))
	}},
	"disk-v1": {"ListDiskLocations", &diskv1.ListDiskLocationsRequest{}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return diskv1.NewDiskClient(cc).ListDiskLocations(ctx, r.(*diskv1.ListDiskLocationsRequest))
	}},
	"volume-v1alpha1": {"ListVolumesOnDisk", &volumev1alpha1.ListVolumesOnDiskRequest{DiskId: "4"}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return volumev1alpha1.NewVolumeClient(cc).ListVolumesOnDisk(ctx, r.(*volumev1alpha1.ListVolumesOnDiskRequest))
	}},
	"volume-v1beta1": {"ListVolumesOnDisk", &volumev1beta1.ListVolumesOnDiskRequest{DiskId: "4"}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return volumev1beta1.NewVolumeClient(cc).ListVolumesOnDisk(ctx, r.(*volumev1beta1.ListVolumesOnDiskRequest))
	}},
	"volume-v1beta2": {"ListVolumesOnDisk", &volumev1beta2.ListVolumesOnDiskRequest{DiskId: "4"}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return volumev1beta2.NewVolumeClient(cc).ListVolumesOnDisk(ctx, r.(*volumev1beta2.ListVolumesOnDiskRequest))
	}},
	"volume-v1beta3": {"ListVolumesOnDisk", &volumev1beta3.ListVolumesOnDiskRequest{DiskNumber: diskNumber}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return volumev1beta3.NewVolumeClient(cc).ListVolumesOnDisk(ctx, r.(*volumev1beta3.ListVolumesOnDiskRequest))
	}},
	"volume-v1": {"ListVolumesOnDisk", &volumev1.ListVolumesOnDiskRequest{DiskNumber: diskNumber}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return volumev1.NewVolumeClient(cc).ListVolumesOnDisk(ctx, r.(*volumev1.ListVolumesOnDiskRequest))
	}},
	"volume-v2alpha1": {"ListVolumesOnDisk", &volumev2alpha1.ListVolumesOnDiskRequest{DiskNumber: diskNumber}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return volumev2alpha1.NewVolumeClient(cc).ListVolumesOnDisk(ctx, r.(*volumev2alpha1.ListVolumesOnDiskRequest))
	}},
	"smb-v1alpha1": {"RemoveSmbGlobalMapping", &smbv1alpha1.RemoveSmbGlobalMappingRequest{RemotePath: noShare}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return smbv1alpha1.NewSmbClient(cc).RemoveSmbGlobalMapping(ctx, r.(*smbv1alpha1.RemoveSmbGlobalMappingRequest))
	}},
	"smb-v1beta1": {"RemoveSmbGlobalMapping", &smbv1beta1.RemoveSmbGlobalMappingRequest{RemotePath: noShare}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return smbv1beta1.NewSmbClient(cc).RemoveSmbGlobalMapping(ctx, r.(*smbv1beta1.RemoveSmbGlobalMappingRequest))
	}},
	"smb-v1beta2": {"RemoveSmbGlobalMapping", &smbv1beta2.RemoveSmbGlobalMappingRequest{RemotePath: noShare}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return smbv1beta2.NewSmbClient(cc).RemoveSmbGlobalMapping(ctx, r.(*smbv1beta2.RemoveSmbGlobalMappingRequest))
	}},
	"smb-v1": {"RemoveSmbGlobalMapping", &smbv1.RemoveSmbGlobalMappingRequest{RemotePath: noShare}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return smbv1.NewSmbClient(cc).RemoveSmbGlobalMapping(ctx, r.(*smbv1.RemoveSmbGlobalMappingRequest))
	}},
	"system-v1alpha1": {"GetBIOSSerialNumber", &systemv1alpha1.GetBIOSSerialNumberRequest{}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return systemv1alpha1.NewSystemClient(cc).GetBIOSSerialNumber(ctx, r.(*systemv1alpha1.GetBIOSSerialNumberRequest))
	}},
	"iscsi-v1alpha1": {"ListTargetPortals", &iscsiv1alpha1.ListTargetPortalsRequest{}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return iscsiv1alpha1.NewIscsiClient(cc).ListTargetPortals(ctx, r.(*iscsiv1alpha1.ListTargetPortalsRequest))
	}},
	"iscsi-v1alpha2": {"ListTargetPortals", &iscsiv1alpha2.ListTargetPortalsRequest{}, func(ctx context.Context, cc *grpc.ClientConn, r proto.Message) (proto.Message, error) {
		return iscsiv1alpha2.NewIscsiClient(cc).ListTargetPortals(ctx, r.(*iscsiv1alpha2.ListTargetPortalsRequest))
	}},
}
