import { ImageListScreen } from '../components/image-list-screen';

/** /home/fault-archived-fault-images: archived fault images, with Unarchive. */
export function FaultArchivedImagesRoute() {
  return <ImageListScreen mode="fault" archived />;
}
