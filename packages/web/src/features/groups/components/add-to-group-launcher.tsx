import { Suspense, lazy, useCallback, useState, type ReactNode } from 'react';

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
 * modal's code loads only when it is first opened.
 */
export function useAddToGroup(): {
  open: (nodeIds: readonly string[], clearSelection: () => void) => void;
  modal: ReactNode;
} {
  const [target, setTarget] = useState<Target | null>(null);
  const open = useCallback((nodeIds: readonly string[], clearSelection: () => void) => {
    setTarget({ nodeIds, clearSelection });
  }, []);
  const close = useCallback(() => setTarget(null), []);
  const modal =
    target === null ? null : (
      <Suspense fallback={null}>
        <AddToGroupModal nodeIds={target.nodeIds} onAdded={target.clearSelection} onClose={close} />
      </Suspense>
    );
  return { open, modal };
}
