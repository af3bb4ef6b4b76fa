import { ImageDetailsScreen } from '../components/image-details-screen';

/** /home/image-details/{ota_image_id} (fleet-management §2 Image details). */
export function ImageDetailsRoute() {
  return <ImageDetailsScreen mode="firmware" />;
}
