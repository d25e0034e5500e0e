// The 1:1 crop of a photo upload (spec 1 §2.7, §9): with JavaScript, once a file is chosen the
// picture shows with a square the user moves (drag, arrow keys) and resizes (drag its corner, the
// Crop size slider). The square goes with the file as cropX, cropY and cropSize in the picture's
// own pixels; the server checks it against the decoded picture (lib/uploads.server.ts). Without
// JavaScript the fields stay empty and the server keeps the centre square.
// Hand-written rather than a library: this is one square over one <img> (about 2 KB); the
// candidates (react-easy-crop, cropperjs) bring zoom, rotation and touch gestures the form does
// not need, at 15-40 KB.
import { useRef, useState, type ChangeEvent, type PointerEvent } from "react";

type Square = { x: number; y: number; size: number };
type Size = { width: number; height: number };

/** The smallest square one may choose, in the picture's pixels. */
const MIN_SIDE = 16;

function clampSquare(square: Square, image: Size): Square {
  const size = Math.round(
    Math.max(
      Math.min(MIN_SIDE, image.width, image.height),
      Math.min(square.size, image.width, image.height),
    ),
  );
  return {
    size,
    x: Math.round(Math.min(Math.max(0, square.x), image.width - size)),
    y: Math.round(Math.min(Math.max(0, square.y), image.height - size)),
  };
}

/** The file input's change handler and what to render below it (the crop, the posted fields). */
export function useImageCrop(label: string) {
  const [source, setSource] = useState<string | null>(null);
  function onFileChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    setSource(null);
    if (!file || !file.type.startsWith("image/")) return;
    // A data: URL, which the CSP's img-src allows (a blob: URL it does not).
    const reader = new FileReader();
    reader.onload = () => setSource(typeof reader.result === "string" ? reader.result : null);
    reader.readAsDataURL(file);
  }
  return {
    onFileChange,
    view: source ? (
      <ImageCrop key={source} source={source} label={label} />
    ) : (
      <CropFields square={null} />
    ),
  };
}

function CropFields({ square }: { square: Square | null }) {
  return (
    <>
      <input type="hidden" name="cropX" value={square?.x ?? ""} />
      <input type="hidden" name="cropY" value={square?.y ?? ""} />
      <input type="hidden" name="cropSize" value={square?.size ?? ""} />
    </>
  );
}

function ImageCrop({ source, label }: { source: string; label: string }) {
  const [image, setImage] = useState<Size | null>(null);
  const [square, setSquare] = useState<Square | null>(null);
  const drag = useRef<{ mode: "move" | "resize"; x: number; y: number; start: Square } | null>(
    null,
  );
  const box = useRef<HTMLDivElement>(null);

  function onLoad(event: React.SyntheticEvent<HTMLImageElement>) {
    const { naturalWidth: width, naturalHeight: height } = event.currentTarget;
    const side = Math.min(width, height);
    setImage({ width, height });
    setSquare({
      x: Math.round((width - side) / 2),
      y: Math.round((height - side) / 2),
      size: side,
    });
  }

  // Screen pixels to the picture's pixels.
  const scale = () => (image && box.current ? image.width / box.current.clientWidth : 1);

  function start(mode: "move" | "resize") {
    return (event: PointerEvent<HTMLElement>) => {
      if (!square) return;
      event.preventDefault();
      event.stopPropagation();
      event.currentTarget.setPointerCapture(event.pointerId);
      drag.current = { mode, x: event.clientX, y: event.clientY, start: square };
    };
  }
  function onPointerMove(event: PointerEvent<HTMLElement>) {
    const current = drag.current;
    if (!current || !image) return;
    const dx = (event.clientX - current.x) * scale();
    const dy = (event.clientY - current.y) * scale();
    const { start } = current;
    setSquare(
      current.mode === "move"
        ? clampSquare({ ...start, x: start.x + dx, y: start.y + dy }, image)
        : clampSquare(
            {
              ...start,
              size: Math.min(
                start.size + Math.max(dx, dy),
                image.width - start.x,
                image.height - start.y,
              ),
            },
            image,
          ),
    );
  }
  function onPointerUp() {
    drag.current = null;
  }
  function onKeyDown(event: React.KeyboardEvent<HTMLElement>) {
    if (!square || !image) return;
    const step = Math.max(1, Math.round(Math.min(image.width, image.height) / 50));
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    setSquare(clampSquare({ ...square, x: square.x + move[0], y: square.y + move[1] }, image));
  }

  const percent = (value: number, of: number) => `${(value / of) * 100}%`;
  return (
    <div className="mb-2">
      <div className="crop-box" ref={box}>
        <img src={source} alt={`${label} to crop`} onLoad={onLoad} draggable={false} />
        {square && image ? (
          <button
            type="button"
            className="crop-square"
            aria-label="Crop selection: drag or use the arrow keys to move it"
            style={{
              left: percent(square.x, image.width),
              top: percent(square.y, image.height),
              width: percent(square.size, image.width),
              height: percent(square.size, image.height),
            }}
            onPointerDown={start("move")}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onKeyDown={onKeyDown}
          >
            <span
              className="crop-handle"
              aria-hidden
              onPointerDown={start("resize")}
              onPointerMove={onPointerMove}
              onPointerUp={onPointerUp}
            />
          </button>
        ) : null}
      </div>
      {square && image ? (
        <>
          <label htmlFor={`${label}-crop-size`} className="form-label small mb-0 d-block">
            Crop size
          </label>
          <input
            id={`${label}-crop-size`}
            type="range"
            className="form-range"
            min={Math.min(MIN_SIDE, image.width, image.height)}
            max={Math.min(image.width, image.height)}
            value={square.size}
            onChange={(event) => {
              const size = Number(event.currentTarget.value);
              // Resized about its centre.
              const grow = (size - square.size) / 2;
              setSquare(clampSquare({ x: square.x - grow, y: square.y - grow, size }, image));
            }}
          />
        </>
      ) : null}
      <CropFields square={square} />
    </div>
  );
}
