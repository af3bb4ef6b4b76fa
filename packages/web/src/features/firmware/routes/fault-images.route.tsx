import { ImageListScreen } from '../components/image-list-screen';

/** /home/Fault-images: images with a fault id (access §2 Fault screens). */
export function FaultImagesRoute() {
  return <ImageListScreen mode="fault" archived={false} />;
}
