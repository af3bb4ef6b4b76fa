import { ImageDetailsScreen } from '../components/image-details-screen';

/** /home/fault-image-details/{ota_image_id} (access §2 Fault screens). */
export function FaultImageDetailsRoute() {
  return <ImageDetailsScreen mode="fault" />;
}
