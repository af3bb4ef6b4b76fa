import { ImageListScreen } from '../components/image-list-screen';

/** /home/archived-firmware-images: archived images, with Unarchive and Delete. */
export function ArchivedFirmwareImagesRoute() {
  return <ImageListScreen mode="firmware" archived />;
}
