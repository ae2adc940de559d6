/** The usual transparency checkerboard behind a cut-out, so transparent areas read as transparent. */
export function Checkerboard({ children, className = "" }: { children: React.ReactNode; className?: string }) {
  return (
    <div
      className={`overflow-hidden rounded-md border border-slate-200 ${className}`}
      style={{
        backgroundColor: "#ffffff",
        backgroundImage: "conic-gradient(#e2e8f0 25%, transparent 0 50%, #e2e8f0 0 75%, transparent 0)",
        backgroundSize: "20px 20px",
      }}
    >
      {children}
    </div>
  );
}
