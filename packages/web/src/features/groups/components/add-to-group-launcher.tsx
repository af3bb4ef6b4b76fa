import { Suspense, lazy, useCallback, type ReactNode } from 'react';
import { useDialogTarget } from '../../../lib/use-dialog-target';

const AddToGroupModal = lazy(async () => ({
  default: (await import('./add-to-group-modal')).AddToGroupModal,
}));

interface Target {
  nodeIds: readonly string[];
  clearSelection: () => void;
}

/**
 * What a node screen needs for its group button (fleet-management §2 "Add to node groups
 * modal"): `open` goes to NodeListPanel's `onAddToGroup`, `modal` is rendered beside it. The
 * modal's code loads only when it is first opened; closing it gives focus back to the button.
 */
export function useAddToGroup(): {
  open: (nodeIds: readonly string[], clearSelection: () => void) => void;
  modal: ReactNode;
} {
  const dialog = useDialogTarget<Target>();
  const { target, close } = dialog;
  const openDialog = dialog.open;
  const open = useCallback(
    (nodeIds: readonly string[], clearSelection: () => void) =>
      openDialog({ nodeIds, clearSelection }),
    [openDialog],
  );
  const modal =
    target === null ? null : (
      <Suspense fallback={null}>
        <AddToGroupModal nodeIds={target.nodeIds} onAdded={target.clearSelection} onClose={close} />
      </Suspense>
    );
  return { open, modal };
}
