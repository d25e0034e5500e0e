// The profile page's building blocks: a titled card section and an SVG chart drawn by the server.

/**
 * An SVG chart drawn by the server (ui/charts/svg.server.tsx: our own markup, no script). After a
 * page load the hydration data holds no chart markup (ui/charts/hydration.server.ts): `svg` is then
 * absent on the client and the markup the server sent stays as it is (React does not rewrite
 * dangerouslySetInnerHTML while hydrating, nor when the string stays the same).
 */
export function Chart({ svg, className }: { svg: string | undefined; className?: string }) {
  return <div className={className} dangerouslySetInnerHTML={{ __html: svg ?? "" }} />;
}

export function Section({
  title,
  id,
  children,
}: {
  title: string;
  id: string;
  children: React.ReactNode;
}) {
  return (
    <section className="card mb-3" aria-labelledby={id}>
      <div className="card-body">
        <h2 className="h5" id={id}>
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}
