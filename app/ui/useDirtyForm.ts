import { useEffect, useRef, useState, type FormEvent } from "react";

/**
 * With JavaScript, Submit stays disabled while the form equals what is saved (spec 1 §2.7, §2.9,
 * §4.6), after a save too. Without JavaScript the server answers an unchanged Submit with a
 * message instead. Pass the saved values; give the form `key` (so a save shows what was saved and
 * starts clean again), `ref` (ValidatedForm: formRef) and `onChange`, and Submit `disabled`.
 */
export function useDirtyForm(saved: unknown) {
  const key = JSON.stringify(saved);
  const ref = useRef<HTMLFormElement>(null);
  const initial = useRef<string | null>(null);
  const [state, setState] = useState<"server" | "clean" | "dirty">("server");
  const snapshot = () =>
    ref.current ? new URLSearchParams(new FormData(ref.current) as never).toString() : "";
  // On mount and after each save: the form (remounted by `key`) holds the saved values.
  useEffect(() => {
    initial.current = snapshot();
    setState("clean");
  }, [key]);
  const onChange = (_: FormEvent) => setState(snapshot() === initial.current ? "clean" : "dirty");
  return { key, ref, onChange, disabled: state === "clean" };
}
