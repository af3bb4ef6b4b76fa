import { ImageListScreen } from '../components/image-list-screen';

/** /home/firmware-images: 'Wifi Firmware Images' (fleet-management §2). */
export function FirmwareImagesRoute() {
  return <ImageListScreen mode="firmware" archived={false} />;
}
